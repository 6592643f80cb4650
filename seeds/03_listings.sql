-- Electric Ride demo data, part 3: vehicles, listings and saved listings.
-- Owners are found through their account ids (see 02_users.sql), never by
-- patron id. Fixed vehicle, listing and saved ids keep this idempotent.

do $seed$
begin
  if (select count(*) from public.patron
      where user_id in ('e1ec7a1d-0000-4000-8000-000000000001',
                        'e1ec7a1d-0000-4000-8000-000000000002',
                        'e1ec7a1d-0000-4000-8000-000000000003')) <> 3 then
    raise exception 'seeds: the three demo patrons are missing; run 02_users.sql first';
  end if;
end
$seed$;

-- (id, make, model, year, colour, drivetrain); year ids: 1 = 2014 ... 12 = 2025
insert into public.vehicle (id, make_id, model_id, year_id, colour_id, drivetrain_id) values
  (1,  1, 1,  8,  1, 1),  -- 2021 Tesla Model 3, White, BEV
  (2,  1, 2,  10, 2, 1),  -- 2023 Tesla Model Y, Black, BEV
  (3,  1, 3,  6,  4, 1),  -- 2019 Tesla Model S, Grey, BEV
  (4,  2, 4,  5,  3, 1),  -- 2018 Nissan Leaf, Silver, BEV
  (5,  2, 5,  10, 5, 1),  -- 2023 Nissan Ariya, Blue, BEV
  (6,  3, 6,  9,  4, 1),  -- 2022 Hyundai Ioniq 5, Grey, BEV
  (7,  3, 7,  7,  6, 1),  -- 2020 Hyundai Kona Electric, Red, BEV
  (8,  3, 8,  11, 2, 1),  -- 2024 Hyundai Ioniq 6, Black, BEV
  (9,  4, 9,  9,  7, 1),  -- 2022 Kia EV6, Green, BEV
  (10, 4, 10, 8,  1, 1),  -- 2021 Kia Niro EV, White, BEV
  (11, 4, 11, 7,  3, 2),  -- 2020 Kia Niro PHEV, Silver, PHEV
  (12, 5, 12, 6,  6, 1),  -- 2019 Chevrolet Bolt EV, Red, BEV
  (13, 5, 13, 4,  3, 5),  -- 2017 Chevrolet Volt, Silver, EREV
  (14, 6, 14, 3,  4, 5),  -- 2016 BMW i3, Grey, EREV
  (15, 6, 15, 10, 5, 1),  -- 2023 BMW i4, Blue, BEV
  (16, 6, 16, 7,  2, 2),  -- 2020 BMW 330e, Black, PHEV
  (17, 7, 17, 8,  1, 1),  -- 2021 Polestar 2, White, BEV
  (18, 8, 18, 9,  5, 1),  -- 2022 Volkswagen ID.4, Blue, BEV
  (19, 8, 19, 5,  1, 1),  -- 2018 Volkswagen e-Golf, White, BEV
  (20, 9, 20, 6,  6, 2),  -- 2019 Toyota Prius Prime, Red, PHEV
  (21, 9, 21, 10, 4, 2),  -- 2023 Toyota RAV4 Prime, Grey, PHEV
  (22, 9, 22, 8,  2, 4),  -- 2021 Toyota Mirai, Black, FCEV
  (23, 1, 1,  6,  6, 1),  -- 2019 Tesla Model 3, Red, BEV
  (24, 2, 4,  1,  7, 1)   -- 2014 Nissan Leaf, Green, BEV
on conflict do nothing;

insert into public.listing (
  id, price, description, listed_on, sold_on, is_active, vehicle_id, patron_id
)
select s.id, s.price, s.description, s.listed_on, s.sold_on, s.sold_on is null,
       s.vehicle_id, p.id
from (values
  (1,  27950.00, 'One owner, home-charged, new tyres.',
       date '2026-09-01', null::date, 1,  'e1ec7a1d-0000-4000-8000-000000000001'::uuid),
  (2,  41500.00, 'Long range, tow bar, full service history.',
       date '2026-09-03', null, 2,  'e1ec7a1d-0000-4000-8000-000000000001'),
  (3,  38900.00, 'Grey interior, free supercharging transferred.',
       date '2026-09-05', date '2026-10-02', 3, 'e1ec7a1d-0000-4000-8000-000000000002'),
  (4,  11200.00, '40 kWh battery at 88% health, city car.',
       date '2026-09-06', null, 4,  'e1ec7a1d-0000-4000-8000-000000000003'),
  (5,  39990.00, 'Barely driven, still under warranty.',
       date '2026-09-08', null, 5,  'e1ec7a1d-0000-4000-8000-000000000002'),
  (6,  36750.00, 'Heat pump, heated seats, two keys.',
       date '2026-09-09', null, 6,  'e1ec7a1d-0000-4000-8000-000000000003'),
  (7,  19800.00, 'Compact SUV, 64 kWh, great range.',
       date '2026-09-10', date '2026-09-28', 7, 'e1ec7a1d-0000-4000-8000-000000000001'),
  (8,  47900.00, 'Dual motor, panoramic roof.',
       date '2026-09-12', null, 8,  'e1ec7a1d-0000-4000-8000-000000000002'),
  (9,  42300.00, 'GT-Line, 800 V fast charging.',
       date '2026-09-13', null, 9,  'e1ec7a1d-0000-4000-8000-000000000003'),
  (10, 23400.00, 'Reliable commuter, low mileage.',
       date '2026-09-15', null, 10, 'e1ec7a1d-0000-4000-8000-000000000001'),
  (11, 21650.00, 'Plug-in hybrid, about 40 km electric range.',
       date '2026-09-16', null, 11, 'e1ec7a1d-0000-4000-8000-000000000002'),
  (12, 18900.00, 'Battery replaced under recall.',
       date '2026-09-18', null, 12, 'e1ec7a1d-0000-4000-8000-000000000003'),
  (13, 14500.00, 'Range extender, petrol backup for long trips.',
       date '2026-09-19', date '2026-10-11', 13, 'e1ec7a1d-0000-4000-8000-000000000001'),
  (14, 15300.00, 'REx model, carbon body, tidy inside.',
       date '2026-09-21', null, 14, 'e1ec7a1d-0000-4000-8000-000000000002'),
  (15, 49500.00, 'eDrive40, adaptive cruise, like new.',
       date '2026-09-22', null, 15, 'e1ec7a1d-0000-4000-8000-000000000003'),
  (16, 26800.00, 'Plug-in hybrid saloon, M Sport trim.',
       date '2026-09-24', null, 16, 'e1ec7a1d-0000-4000-8000-000000000001'),
  (17, 33200.00, 'Long range dual motor, pilot pack.',
       date '2026-09-25', null, 17, 'e1ec7a1d-0000-4000-8000-000000000002'),
  (18, 35400.00, 'Family SUV, roof rails, 77 kWh.',
       date '2026-09-27', date '2026-10-20', 18, 'e1ec7a1d-0000-4000-8000-000000000003'),
  (19, 13900.00, 'Quiet and nimble, ideal second car.',
       date '2026-09-28', null, 19, 'e1ec7a1d-0000-4000-8000-000000000001'),
  (20, 22100.00, 'Solar roof, very economical.',
       date '2026-09-30', null, 20, 'e1ec7a1d-0000-4000-8000-000000000002'),
  (21, 44800.00, 'All-wheel drive plug-in hybrid, 300 hp.',
       date '2026-10-01', null, 21, 'e1ec7a1d-0000-4000-8000-000000000003'),
  (22, 29900.00, 'Hydrogen fuel cell, refuelling card included.',
       date '2026-10-03', null, 22, 'e1ec7a1d-0000-4000-8000-000000000001'),
  (23, 25600.00, 'Standard range plus, red multi-coat paint.',
       date '2026-10-05', null, 23, 'e1ec7a1d-0000-4000-8000-000000000002'),
  (24,  6900.00, 'Early model, 24 kWh, short commutes only.',
       date '2026-10-06', null, 24, 'e1ec7a1d-0000-4000-8000-000000000003')
) as s(id, price, description, listed_on, sold_on, vehicle_id, owner_id)
join public.patron p on p.user_id = s.owner_id
on conflict do nothing;

-- Ava and Tobin saved some of the others' listings (one of them since sold).
insert into public.saved (id, saved_on, patron_id, listing_id)
select s.id, s.saved_on, p.id, s.listing_id
from (values
  (1, timestamptz '2026-10-01 08:30:00+00', 'e1ec7a1d-0000-4000-8000-000000000001'::uuid, 6),
  (2, timestamptz '2026-10-02 19:10:00+00', 'e1ec7a1d-0000-4000-8000-000000000001'::uuid, 9),
  (3, timestamptz '2026-10-04 12:45:00+00', 'e1ec7a1d-0000-4000-8000-000000000001'::uuid, 17),
  (4, timestamptz '2026-10-07 21:00:00+00', 'e1ec7a1d-0000-4000-8000-000000000001'::uuid, 18),
  (5, timestamptz '2026-10-03 10:20:00+00', 'e1ec7a1d-0000-4000-8000-000000000002'::uuid, 1),
  (6, timestamptz '2026-10-05 16:35:00+00', 'e1ec7a1d-0000-4000-8000-000000000002'::uuid, 12),
  (7, timestamptz '2026-10-08 07:55:00+00', 'e1ec7a1d-0000-4000-8000-000000000002'::uuid, 21)
) as s(id, saved_on, owner_id, listing_id)
join public.patron p on p.user_id = s.owner_id
on conflict do nothing;

select setval(pg_get_serial_sequence('public.vehicle', 'id'), max(id)) from public.vehicle;
select setval(pg_get_serial_sequence('public.listing', 'id'), max(id)) from public.listing;
select setval(pg_get_serial_sequence('public.saved', 'id'), max(id)) from public.saved;
