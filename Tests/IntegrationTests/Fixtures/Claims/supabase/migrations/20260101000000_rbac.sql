-- Role-based access as Supabase's guide describes it (custom claims & RBAC): a role
-- per user, a custom access token hook that copies it into the token as user_role,
-- and policies on the claims. Written for pgwarden's tests.
create type public.app_role as enum ('admin', 'member');

create table public.user_roles (
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.app_role not null,
  primary key (user_id, role)
);
alter table public.user_roles enable row level security;

create function public.custom_access_token_hook(event jsonb)
returns jsonb
language plpgsql
stable
as $$
declare
  claims jsonb := event -> 'claims';
  user_role public.app_role;
begin
  if (select u.email from auth.users u where u.id = (event ->> 'user_id')::uuid) like 'banned%' then
    return jsonb_build_object('error', jsonb_build_object('http_code', 403, 'message', 'banned users may not sign in'));
  end if;
  select r.role into user_role from public.user_roles r where r.user_id = (event ->> 'user_id')::uuid;
  claims := jsonb_set(claims, '{user_role}', coalesce(to_jsonb(user_role), 'null'));
  -- Stamps for the tests: who ran the hook, and for which sign-in method.
  claims := claims || jsonb_build_object('hook_ran_as', current_user, 'hook_method', event ->> 'authentication_method');
  return jsonb_build_object('claims', claims);
end;
$$;

grant usage on schema public to supabase_auth_admin;
grant execute on function public.custom_access_token_hook to supabase_auth_admin;
revoke execute on function public.custom_access_token_hook from authenticated, anon, public;
grant select on table public.user_roles to supabase_auth_admin;
revoke all on table public.user_roles from authenticated, anon;
create policy "The auth server reads user roles." on public.user_roles
  as permissive for select to supabase_auth_admin using (true);

-- Notes only admins (by the hook's claim) may read.
create table public.admin_notes (
  id bigint generated always as identity primary key,
  body text not null
);
alter table public.admin_notes enable row level security;
create policy "Admins read notes." on public.admin_notes
  for select to authenticated using ((select auth.jwt() ->> 'user_role') = 'admin');

-- A vault gated by MFA, as Supabase's MFA guide does it: a restrictive policy on aal.
create table public.vault (
  id bigint generated always as identity primary key,
  secret text not null
);
alter table public.vault enable row level security;
create policy "Signed-in users read the vault." on public.vault
  for select to authenticated using (true);
create policy "Only with MFA." on public.vault
  as restrictive to authenticated using ((select auth.jwt() ->> 'aal') = 'aal2');

-- News that only a token still valid may read.
create table public.news (
  id bigint generated always as identity primary key,
  headline text not null
);
alter table public.news enable row level security;
create policy "Unexpired tokens read news." on public.news
  for select to authenticated
  using (((select auth.jwt() ->> 'exp')::bigint) > extract(epoch from now()));
