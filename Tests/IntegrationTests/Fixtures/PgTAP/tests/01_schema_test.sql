-- Electric Ride's schema, as a Supabase project's own pgTAP file would check it:
-- a file with its own BEGIN ... ROLLBACK, as `supabase test db` files usually are.
begin;
select plan(7);

select has_table('public', 'vehicle', 'vehicle exists');
select has_table('public', 'listing', 'listing exists');
select has_column('public', 'listing', 'patron_id', 'a listing names its seller');
select ok(
  (select relrowsecurity from pg_class where oid = 'public.listing'::regclass),
  'listing has row-level security on'
);
select is((select count(*)::int from public.colour), 7, 'the seeds give 7 colours');

-- A wish and a skipped check: neither fails the file (TAP's TODO and SKIP).
select todo('brand names are not yet unique per country', 1);
select ok(false, 'brand names are unique per country');
select skip('storage is checked by the access plan', 1);

select * from finish();
rollback;
