-- migrate:up
-- Lets a signed-in user delete their own account. Deleting the auth.users row
-- cascades to their patron, and from there to their listings and saved rows.
-- Runs as its owner (API roles may not touch auth.users), with an empty
-- search_path and every name schema-qualified.
create function public.delete_current_user()
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $fn$
declare
  current_id uuid := auth.uid();
begin
  if current_id is null then
    raise exception 'delete_current_user: no signed-in user'
      using errcode = '42501',
            hint = 'Call it as a signed-in user (JWT claim sub).';
  end if;

  delete from auth.users where id = current_id;
end
$fn$;
comment on function public.delete_current_user() is
  'Deletes the signed-in user''s account and, by cascade, all their data.';

revoke execute on function public.delete_current_user() from public, anon;
grant execute on function public.delete_current_user() to authenticated;

-- migrate:down
drop function public.delete_current_user();
