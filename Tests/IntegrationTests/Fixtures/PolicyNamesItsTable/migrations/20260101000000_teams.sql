-- A policy whose subquery names its own table: PostgreSQL stores the outer column as
-- teams.id (pg_policies.qual), the shape of Supabase's "Advanced rules" RLS example.
create table public.teams (id bigint generated always as identity primary key, name text not null);
create table public.members (
  team_id bigint not null references public.teams (id),
  user_id uuid not null references auth.users (id),
  primary key (team_id, user_id));
alter table public.teams enable row level security;
alter table public.members enable row level security;
grant select on public.teams to authenticated;
grant select on public.members to authenticated;
create policy "members read their teams" on public.teams for select to authenticated
  using ((select auth.uid()) in (select user_id from public.members where team_id = id));
create policy "members read their memberships" on public.members for select to authenticated
  using (user_id = (select auth.uid()));

