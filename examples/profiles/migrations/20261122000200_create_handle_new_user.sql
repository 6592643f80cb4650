-- migrate:up
-- Creates the profile of every new account, from what the sign-in provider put in
-- raw_user_meta_data (name or full_name; Kakao sends name, Apple and Google
-- full_name). Runs as its owner with an empty search_path: every name is
-- schema-qualified, so no object in another schema can stand in for them.
create function public.handle_new_user()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $fn$
begin
  insert into public."user" (id, email, name)
  values (
    new.id,
    new.email,
    coalesce(new.raw_user_meta_data ->> 'name', new.raw_user_meta_data ->> 'full_name'));
  return new;
end
$fn$;

-- A trigger function is no API: no role a client can use may execute it.
-- (PostgreSQL grants EXECUTE to PUBLIC by default, and Supabase's default
-- privileges grant it to anon, authenticated and service_role as well.)
revoke execute on function public.handle_new_user() from public, anon, authenticated, service_role;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- migrate:down
drop trigger on_auth_user_created on auth.users;
drop function public.handle_new_user();
