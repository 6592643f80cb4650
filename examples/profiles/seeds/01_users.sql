-- Profiles demo data: three invented accounts (example.com only), signed in with
-- Kakao, Apple and email. Inserting into auth.users fires on_auth_user_created,
-- which makes each profile. Safe to run twice.

insert into auth.users (
  instance_id, id, aud, role, email, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at
)
values
  ('00000000-0000-0000-0000-000000000000', '9f0f11e5-0000-4000-8000-000000000001',
   'authenticated', 'authenticated', 'jiwoo.han@example.com', '2026-10-02 10:00:00+00',
   '{"provider": "kakao", "providers": ["kakao"]}', '{"name": "Jiwoo Han"}',
   '2026-10-02 10:00:00+00', '2026-10-02 10:00:00+00'),
  ('00000000-0000-0000-0000-000000000000', '9f0f11e5-0000-4000-8000-000000000002',
   'authenticated', 'authenticated', 'noel.brightwater@example.com', '2026-10-05 14:20:00+00',
   '{"provider": "apple", "providers": ["apple"]}', '{"full_name": "Noel Brightwater"}',
   '2026-10-05 14:20:00+00', '2026-10-05 14:20:00+00'),
  ('00000000-0000-0000-0000-000000000000', '9f0f11e5-0000-4000-8000-000000000003',
   'authenticated', 'authenticated', 'ines.marlowe@example.com', '2026-10-09 09:45:00+00',
   '{"provider": "email", "providers": ["email"]}', '{}',
   '2026-10-09 09:45:00+00', '2026-10-09 09:45:00+00')
on conflict (id) do nothing;

-- Profiles for accounts that existed before the trigger (e.g. kept across a reset).
insert into public."user" (id, email, name)
select u.id, u.email, coalesce(u.raw_user_meta_data ->> 'name', u.raw_user_meta_data ->> 'full_name')
from auth.users u
where u.id::text like '9f0f11e5-0000-4000-8000-%'
on conflict (id) do nothing;
