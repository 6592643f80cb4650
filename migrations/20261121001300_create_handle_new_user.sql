-- migrate:up
-- Creates the patron for every new account. Runs as its owner (the account's
-- user has no rights on patron yet), with an empty search_path, so every name is
-- schema-qualified. Missing metadata never fails a sign-up:
--   first_name: metadata first_name, else the first word of full_name or name,
--               else the email's local part, else 'New';
--   last_name:  metadata last_name, else the rest of full_name or name, else ''.
-- Built-ins resolve from pg_catalog, which is always searched first.
-- Accounts without an email (phone-only or anonymous sign-ins) get no patron:
-- patron.email_address is required.
create function public.handle_new_user()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $fn$
declare
  meta         jsonb := new.raw_user_meta_data;
  display_name text;
  given_name   text;
  family_name  text;
begin
  if new.email is null then
    return new;
  end if;

  if jsonb_typeof(meta) is distinct from 'object' then
    meta := '{}'::jsonb;
  end if;

  -- 'Mara  Quill Denton' -> given 'Mara', family 'Quill Denton'
  display_name := nullif(btrim(regexp_replace(
    coalesce(meta ->> 'full_name', meta ->> 'name', ''), '\s+', ' ', 'g')), '');
  given_name := coalesce(
    nullif(btrim(meta ->> 'first_name'), ''),
    nullif(split_part(display_name, ' ', 1), ''),
    nullif(split_part(new.email, '@', 1), ''),
    'New');
  family_name := coalesce(
    nullif(btrim(meta ->> 'last_name'), ''),
    nullif(btrim(substr(display_name, strpos(display_name || ' ', ' ') + 1)), ''),
    '');

  insert into public.patron (first_name, last_name, email_address, user_id)
  values (given_name, family_name, new.email, new.id)
  on conflict (user_id) do nothing;

  return new;
end
$fn$;
comment on function public.handle_new_user() is
  'Trigger: creates the patron of a new auth.users row (at most one).';

-- Not callable by API roles (the default privileges granted it).
revoke execute on function public.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- migrate:down
-- Dropping the function drops its trigger with it. "drop trigger ... on auth.users"
-- would need to own auth.users, which postgres does not on Supabase (nor on
-- pgwarden's twin): supabase_auth_admin does. DROP ... CASCADE removes dependent
-- objects without that check, so this works on both.
drop function public.handle_new_user() cascade;
