-- To-do demo data: one permanent account and one anonymous one (invented people,
-- example.com only), each with a few items. Safe to run twice.

insert into auth.users (
  instance_id, id, aud, role, email, email_confirmed_at, is_anonymous,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at
)
values
  ('00000000-0000-0000-0000-000000000000', '70d0a11d-0000-4000-8000-000000000001',
   'authenticated', 'authenticated', 'maya.lindqvist@example.com', '2026-09-01 08:00:00+00', false,
   '{"provider": "email", "providers": ["email"]}', '{"name": "Maya Lindqvist"}',
   '2026-09-01 08:00:00+00', '2026-09-01 08:00:00+00'),
  -- An anonymous sign-in: no email, provider "anonymous", is_anonymous true.
  ('00000000-0000-0000-0000-000000000000', '70d0a11d-0000-4000-8000-000000000002',
   'authenticated', 'authenticated', null, null, true,
   '{"provider": "anonymous", "providers": ["anonymous"]}', '{}',
   '2026-09-02 19:30:00+00', '2026-09-02 19:30:00+00')
on conflict (id) do nothing;

insert into public.todos (id, user_id, title, is_completed)
overriding system value
values
  (1, '70d0a11d-0000-4000-8000-000000000001', 'Renew library card', false),
  (2, '70d0a11d-0000-4000-8000-000000000001', 'Buy oat milk', true),
  (3, '70d0a11d-0000-4000-8000-000000000001', 'Book dentist appointment', false),
  (4, '70d0a11d-0000-4000-8000-000000000002', 'Try the app before signing up', false),
  (5, '70d0a11d-0000-4000-8000-000000000002', 'Buy birthday candles', false)
on conflict (id) do nothing;

-- Later inserts must not collide with the ids above.
select setval(pg_get_serial_sequence('public.todos', 'id'), greatest(5, (select max(id) from public.todos)));
