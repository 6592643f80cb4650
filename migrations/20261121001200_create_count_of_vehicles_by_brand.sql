-- migrate:up
-- Number of active listings per brand, for everyone including anon.
--
-- Deliberately NOT security_invoker: the view runs with its owner's rights, so
-- anon (who may read no table) can still read these counts, and only these.
-- It reads just listing, vehicle and make, shows only brands with at least one
-- active listing, and is a security barrier so a caller's WHERE clause cannot be
-- evaluated on rows before the view's own filter.
create view public.count_of_vehicles_by_brand
  with (security_barrier = true)
as
select
  mk.brand_name as brand,
  count(*)      as vehicles_available
from public.listing l
join public.vehicle v on v.id = l.vehicle_id
join public.make mk   on mk.id = v.make_id
where l.is_active
group by mk.brand_name;
comment on view public.count_of_vehicles_by_brand is
  'Active listings per brand. Runs as its owner on purpose: anon may read the counts but not the tables.';

revoke all on public.count_of_vehicles_by_brand from anon, authenticated;
grant select on public.count_of_vehicles_by_brand to anon, authenticated;

-- migrate:down
drop view public.count_of_vehicles_by_brand;
