-- The two functions as the social-login starters publish them (rewritten here;
-- the mistake is theirs). Apply instead of this example's migrations 2 and 3 to
-- see what the access plan says about them:
--   * neither function revokes anything, so PostgreSQL's default EXECUTE for
--     PUBLIC (and Supabase's default grants to anon, authenticated and
--     service_role) stays: anon may call delete_current_user() and
--     handle_new_user();
--   * delete_current_user() resolves names through
--     search_path = public, auth, pg_catalog.
create function public.handle_new_user()
  returns trigger
  language plpgsql
  security definer
  set search_path = public
as $fn$
begin
  insert into public."user" (id, email, name)
  values (new.id, new.email, coalesce(new.raw_user_meta_data ->> 'name', new.raw_user_meta_data ->> 'full_name'));
  return new;
end
$fn$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

create function public.delete_current_user()
  returns void
  language plpgsql
  security definer
  set search_path = public, auth, pg_catalog
as $fn$
begin
  delete from "user" where id = auth.uid();
  delete from users where id = auth.uid();
end
$fn$;
