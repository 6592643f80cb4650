-- Sign-in providers of each account, for the account page.
create view public.account_providers with (security_invoker = on) as
  select i.user_id, i.provider, i.last_sign_in_at
  from auth.identities i
  where i.user_id = (select auth.uid());

revoke all on public.account_providers from anon;

-- A custom access token hook: the auth server (supabase_auth_admin) calls it.
create function public.custom_access_token_hook(event jsonb)
returns jsonb
language plpgsql
stable
as $$
declare
  claims jsonb := event -> 'claims';
begin
  claims := jsonb_set(claims, '{user_role}', to_jsonb(coalesce(
    (select p.username from public.profiles p where p.id = (event ->> 'user_id')::uuid), 'member')));
  return jsonb_set(event, '{claims}', claims);
end;
$$;

grant usage on schema public to supabase_auth_admin;
grant execute on function public.custom_access_token_hook to supabase_auth_admin;
revoke execute on function public.custom_access_token_hook from authenticated, anon, public;
grant select on table public.profiles to supabase_auth_admin;
create policy "The auth server reads profiles." on public.profiles
  as permissive for select to supabase_auth_admin using (true);
