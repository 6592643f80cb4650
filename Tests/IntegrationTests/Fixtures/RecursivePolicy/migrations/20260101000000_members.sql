-- A policy that reads its own table: every read by a signed-in user fails with 42P17
-- (infinite recursion detected in policy), on Supabase as here.
create table public.members (
  id bigint generated always as identity primary key,
  team_id bigint not null,
  user_id uuid not null default auth.uid() references auth.users (id));
alter table public.members enable row level security;
grant select, insert on public.members to authenticated;
create policy "members see their team" on public.members for select to authenticated
  using (team_id in (select m.team_id from public.members m where m.user_id = auth.uid()));
