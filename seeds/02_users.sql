-- Electric Ride demo data, part 2: three invented demo accounts.
-- Inserting into auth.users fires on_auth_user_created, which creates each
-- account's patron from raw_user_meta_data. Password of every demo account:
-- electric-ride-demo (bcrypt hash below).

insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at
)
select
  '00000000-0000-0000-0000-000000000000'::uuid, u.id, 'authenticated', 'authenticated',
  u.email, '$2b$10$vIAVjwkgulSPcCskVgByw.z4s6NDtpNwgBtxLp1682HG3Ms4vUhDG',
  u.created_at, '', '', '', '',
  '{"provider": "email", "providers": ["email"]}'::jsonb,
  jsonb_build_object('first_name', u.first_name, 'last_name', u.last_name),
  false, u.created_at, u.created_at
from (values
  ('e1ec7a1d-0000-4000-8000-000000000001'::uuid, 'ava.quenby@example.com',
   'Ava', 'Quenby', '2026-08-03 09:15:00+00'::timestamptz),
  ('e1ec7a1d-0000-4000-8000-000000000002'::uuid, 'tobin.ashgrove@example.com',
   'Tobin', 'Ashgrove', '2026-08-11 17:40:00+00'::timestamptz),
  ('e1ec7a1d-0000-4000-8000-000000000003'::uuid, 'wren.halvorsen@example.com',
   'Wren', 'Halvorsen', '2026-08-20 12:05:00+00'::timestamptz)
) as u(id, email, first_name, last_name, created_at)
on conflict (id) do nothing;

-- The trigger creates patrons only for new accounts; make sure every demo
-- account has one (e.g. accounts kept from before the migrations were re-applied).
insert into public.patron (first_name, last_name, email_address, user_id)
select
  u.raw_user_meta_data ->> 'first_name',
  u.raw_user_meta_data ->> 'last_name',
  u.email,
  u.id
from auth.users u
where u.id in ('e1ec7a1d-0000-4000-8000-000000000001',
               'e1ec7a1d-0000-4000-8000-000000000002',
               'e1ec7a1d-0000-4000-8000-000000000003')
  and not exists (select 1 from public.patron p where p.user_id = u.id)
on conflict (user_id) do nothing;

-- Sellers' contact numbers (fictional 555-01xx numbers).
update public.patron p
set phone_number = c.phone_number
from (values
  ('e1ec7a1d-0000-4000-8000-000000000001'::uuid, '+1-202-555-0147'),
  ('e1ec7a1d-0000-4000-8000-000000000002'::uuid, '+1-202-555-0183')
) as c(user_id, phone_number)
where p.user_id = c.user_id
  and p.phone_number is distinct from c.phone_number;
