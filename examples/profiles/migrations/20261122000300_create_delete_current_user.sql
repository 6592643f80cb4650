-- migrate:up
-- Lets a signed-in user delete their own account (an RPC the app calls from its
-- settings screen). Deleting the auth.users row cascades to the profile. Runs as
-- its owner, since API roles may not touch auth.users, with an empty search_path.
create function public.delete_current_user()
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $fn$
declare
  caller uuid := auth.uid();
begin
  if caller is null then
    raise exception 'delete_current_user: no signed-in user'
      using errcode = '42501', hint = 'Call it as a signed-in user (JWT claim sub).';
  end if;
  delete from auth.users where id = caller;
end
$fn$;

-- Signed-in users only.
revoke execute on function public.delete_current_user() from public, anon, authenticated, service_role;
grant execute on function public.delete_current_user() to authenticated;

-- migrate:down
drop function public.delete_current_user();
