-- Electric Ride demo data, part 1: lookup tables.
-- Fixed ids, so the later seed files can refer to them; idempotent (existing rows
-- are kept), and each identity sequence is moved past the highest id afterwards.

insert into public.colour (id, name) values
  (1, 'White'),
  (2, 'Black'),
  (3, 'Silver'),
  (4, 'Grey'),
  (5, 'Blue'),
  (6, 'Red'),
  (7, 'Green')
on conflict do nothing;

insert into public.drivetrain (id, acronym, description) values
  (1, 'BEV',  'Battery electric vehicle'),
  (2, 'PHEV', 'Plug-in hybrid electric vehicle'),
  (3, 'HEV',  'Hybrid electric vehicle'),
  (4, 'FCEV', 'Fuel cell electric vehicle'),
  (5, 'EREV', 'Extended-range electric vehicle')
on conflict do nothing;

insert into public.make (id, brand_name) values
  (1, 'Tesla'),
  (2, 'Nissan'),
  (3, 'Hyundai'),
  (4, 'Kia'),
  (5, 'Chevrolet'),
  (6, 'BMW'),
  (7, 'Polestar'),
  (8, 'Volkswagen'),
  (9, 'Toyota')
on conflict do nothing;

insert into public.model (id, name, make_id) values
  (1,  'Model 3',       1),
  (2,  'Model Y',       1),
  (3,  'Model S',       1),
  (4,  'Leaf',          2),
  (5,  'Ariya',         2),
  (6,  'Ioniq 5',       3),
  (7,  'Kona Electric', 3),
  (8,  'Ioniq 6',       3),
  (9,  'EV6',           4),
  (10, 'Niro EV',       4),
  (11, 'Niro PHEV',     4),
  (12, 'Bolt EV',       5),
  (13, 'Volt',          5),
  (14, 'i3',            6),
  (15, 'i4',            6),
  (16, '330e',          6),
  (17, 'Polestar 2',    7),
  (18, 'ID.4',          8),
  (19, 'e-Golf',        8),
  (20, 'Prius Prime',   9),
  (21, 'RAV4 Prime',    9),
  (22, 'Mirai',         9)
on conflict do nothing;

insert into public.year (id, name)
select y - 2013, y::text
from generate_series(2014, 2025) as y
on conflict do nothing;

select setval(pg_get_serial_sequence('public.colour', 'id'), max(id)) from public.colour;
select setval(pg_get_serial_sequence('public.drivetrain', 'id'), max(id)) from public.drivetrain;
select setval(pg_get_serial_sequence('public.make', 'id'), max(id)) from public.make;
select setval(pg_get_serial_sequence('public.model', 'id'), max(id)) from public.model;
select setval(pg_get_serial_sequence('public.year', 'id'), max(id)) from public.year;
