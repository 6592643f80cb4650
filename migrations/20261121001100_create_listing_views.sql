-- migrate:up
-- Views for signed-in users. security_invoker: they run with the caller's
-- privileges, so the tables' policies apply to the caller as usual.
create view public.listings_with_details
  with (security_invoker = true)
as
select
  l.id,
  l.price,
  l.description,
  l.listed_on,
  mk.brand_name as brand,
  mo.name       as model,
  y.name        as year,
  c.name        as colour,
  d.acronym     as drivetrain
from public.listing l
join public.vehicle v     on v.id = l.vehicle_id
join public.make mk       on mk.id = v.make_id
join public.model mo      on mo.id = v.model_id
join public.year y        on y.id = v.year_id
join public.colour c      on c.id = v.colour_id
join public.drivetrain d  on d.id = v.drivetrain_id
where l.is_active;
comment on view public.listings_with_details is
  'Active listings with their vehicle described in words.';

-- Every saved row the caller may see (RLS on saved: only their own), with the
-- listing's details; is_active tells whether the listing is still for sale.
create view public.saved_listings
  with (security_invoker = true)
as
select
  s.id,
  s.saved_on,
  s.patron_id,
  s.listing_id,
  l.price,
  l.description,
  l.listed_on,
  l.is_active,
  mk.brand_name as brand,
  mo.name       as model,
  y.name        as year,
  c.name        as colour,
  d.acronym     as drivetrain
from public.saved s
join public.listing l     on l.id = s.listing_id
join public.vehicle v     on v.id = l.vehicle_id
join public.make mk       on mk.id = v.make_id
join public.model mo      on mo.id = v.model_id
join public.year y        on y.id = v.year_id
join public.colour c      on c.id = v.colour_id
join public.drivetrain d  on d.id = v.drivetrain_id;
comment on view public.saved_listings is
  'The caller''s saved listings with listing details.';

-- Default privileges granted these to anon and authenticated: anon gets nothing,
-- authenticated may only read.
revoke all on public.listings_with_details, public.saved_listings from anon;
revoke insert, update, delete, truncate, references, trigger
  on public.listings_with_details, public.saved_listings
  from authenticated;

-- migrate:down
drop view public.saved_listings;
drop view public.listings_with_details;
