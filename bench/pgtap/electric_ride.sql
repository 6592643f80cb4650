-- Electric Ride's access plan (access-plan.yml), hand-written as pgTAP: the same
-- 291 assertions that `pgwarden test` makes, one per probe, in the same order,
-- written the way Supabase projects write their RLS tests today:
--   254 relation cells and column lists: the 12 tables and views of `public`
--       (182) and storage's `buckets`, `objects` and S3 multipart upload tables (72);
--    28 function privileges: delete_current_user(), handle_new_user() and
--       storage's foldername(), filename(), extension(), protect_delete() and
--       update_updated_at_column(), for each of the four personas;
--     9 custom checks, the last three about vehicle photos in storage.
-- Run it with pg_prove on a migrated and seeded database that has pgTAP installed
-- (bench/access-plan.sh does all of that), pg_prove connecting through PGHOST,
-- PGPORT, PGUSER (a superuser, as pgwarden's admin) and PGDATABASE:
--
--   pg_prove bench/pgtap/electric_ride.sql
--
-- How each pgwarden probe becomes an assertion:
--   select all / own   results_eq against the admin's snapshot (all rows, or the
--                      rows the owner rule picks), like pgwarden's row digests
--   select none        is_empty (what these grants give: pgwarden also accepts 42501)
--   select denied      throws_ok(..., '42501')
--   insert             lives_ok, or throws_ok with 42501; the plan's sample values,
--                      its before_insert as the admin first (patron)
--   update / delete    the number of rows a data-modifying CTE affects (1 allowed,
--                      0 denied), or throws_ok with 42501 where a with check stops a
--                      move to another owner
--   allowed, then a    throws_ok with the constraint's SQLSTATE (23503, 23505);
--   constraint stops   pgwarden counts these as allowed
--   columns            columns_are (pgwarden also checks their order)
--   function execute   function_privs_are under the persona's role (pgwarden asks
--                      has_function_privilege, which is what both compare)
--   check              results_eq / throws_ok / ok on the check's SQL, after its
--                      `before` SQL verbatim as the admin
-- Every probe has its assertion; none is left out. Where pgwarden aims a write at
-- "the first row" the owner rule picks (by ctid), this file names one such row
-- (e.g. the first of a user's photos by name), and it writes the sample's
-- expressions inline rather than binding values computed beforehand: the rows and
-- values are the same ones here, the choice is only how they are found.
--
-- Requests are impersonated as PostgREST does it: `set local role <role>` and
-- `set_config('request.jwt.claims', <claims>, true)`. Everything runs in one
-- transaction that is rolled back, and every write assertion (insert, update,
-- delete, allowed or not) runs in its own savepoint that is rolled back, as
-- pgwarden's probes do: a write that wrongly succeeds cannot skew the assertions
-- after it. A denied update or delete is asserted as "0 rows affected" through a
-- data-modifying CTE; an unexpected error there (say 23503 once row security is
-- off) stops the file, as it would any hand-written pgTAP suite.
--
-- Where pgwarden compares what a persona sees with what the admin sees, this file
-- compares with a snapshot taken as the admin right after the setup (schema
-- as_admin, created and dropped with the transaction): the probes never change the
-- data, so the snapshot is what the admin would see at every assertion.
--
-- pgTAP is looked up in the `extensions` schema, as on Supabase (or in public).

begin;
set local search_path = public, extensions;
-- Personas reach storage through Supabase's storage server, which marks every
-- transaction it runs so that its deletes pass storage.protect_delete(); so does
-- pgwarden, for the whole run.
set local storage.allow_delete_query = 'true';

select plan(291);

-- ---------------------------------------------------------------- users and setup
-- The plan's two users. Inserting into auth.users fires on_auth_user_created,
-- which creates their patrons.
insert into auth.users (id, aud, role, email, email_confirmed_at,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('aaaaaaaa-0000-4000-8000-000000000001', 'authenticated', 'authenticated',
        'ava.plan@example.com', now(), '{"provider":"email","providers":["email"]}',
        '{"first_name":"Ava","last_name":"Planwright"}', now(), now()),
       ('bbbbbbbb-0000-4000-8000-000000000002', 'authenticated', 'authenticated',
        'ben.plan@example.com', now(), '{"provider":"email","providers":["email"]}',
        '{"full_name":"Ben Probert"}', now(), now());

-- The plan's setup, verbatim: give each persona rows to own.
with colour as (insert into public.colour (name) values ('Plan Silver') returning id),
     drivetrain as (insert into public.drivetrain (acronym, description)
                    values ('PLAN', 'Plan drivetrain') returning id),
     make as (insert into public.make (brand_name) values ('Plan Motors') returning id),
     model as (insert into public.model (name, make_id) select 'Plan One', id from make
               returning id, make_id),
     year as (insert into public.year (name) values ('2031') returning id)
insert into public.vehicle (make_id, model_id, year_id, colour_id, drivetrain_id)
select model.make_id, model.id, year.id, colour.id, drivetrain.id
from model, year, colour, drivetrain, generate_series(1, 4);

insert into public.listing (price, description, is_active, sold_on, vehicle_id, patron_id)
select v.price, v.description, v.is_active, v.sold_on, vehicle.id, patron.id
from (values (1, 'ava.plan@example.com', 21000.00, 'Ava''s active listing', true, null::date),
             (2, 'ava.plan@example.com', 18000.00, 'Ava''s sold listing', false, current_date),
             (3, 'ben.plan@example.com', 33000.00, 'Ben''s first listing', true, null),
             (4, 'ben.plan@example.com', 29500.00, 'Ben''s second listing', true, null))
       as v(n, email, price, description, is_active, sold_on)
join public.patron on patron.email_address = v.email
join (select id, row_number() over (order by id) as n from public.vehicle
      where make_id = (select id from public.make where brand_name = 'Plan Motors')) vehicle
  on vehicle.n = v.n;

insert into public.saved (patron_id, listing_id)
select saver.id, listing.id
from public.patron saver
join public.listing on listing.description in ('Ben''s first listing', 'Ava''s active listing')
join public.patron seller on seller.id = listing.patron_id and seller.id <> saver.id
where saver.email_address in ('ava.plan@example.com', 'ben.plan@example.com');

-- A photo of each of the personas' listings on sale, in its seller's folder.
insert into storage.objects (bucket_id, name, owner_id)
select 'vehicle-photos', p.user_id::text || '/' || l.id::text || '/front.jpg', p.user_id::text
from public.listing l join public.patron p on p.id = l.patron_id
where p.email_address in ('ava.plan@example.com', 'ben.plan@example.com') and l.is_active;

-- An S3 multipart upload in progress, with one part, for the storage server's tables.
with upload as (
  insert into storage.s3_multipart_uploads (id, upload_signature, bucket_id, key, version)
  values ('plan-upload', 'plan-signature', 'vehicle-photos', 'plan/large.jpg', 'plan-version')
  returning id, bucket_id, key, version)
insert into storage.s3_multipart_uploads_parts (upload_id, part_number, bucket_id, key, etag, version)
select id, 1, bucket_id, key, 'plan-etag', version from upload;

-- What the admin sees, for the "all" and "own" comparisons and for naming rows
-- that a persona itself cannot see.
create schema as_admin;
create table as_admin.colour as select * from public.colour;
create table as_admin.drivetrain as select * from public.drivetrain;
create table as_admin.make as select * from public.make;
create table as_admin.model as select * from public.model;
create table as_admin.year as select * from public.year;
create table as_admin.vehicle as select * from public.vehicle;
create table as_admin.patron as select * from public.patron;
create table as_admin.listing as select * from public.listing;
create table as_admin.saved as select * from public.saved;
create table as_admin.listings_with_details as select * from public.listings_with_details;
create table as_admin.saved_listings as select * from public.saved_listings;
create table as_admin.count_of_vehicles_by_brand as select * from public.count_of_vehicles_by_brand;
create table as_admin.buckets as select * from storage.buckets;
create table as_admin.objects as select * from storage.objects;
create table as_admin.s3_multipart_uploads as select * from storage.s3_multipart_uploads;
create table as_admin.s3_multipart_uploads_parts as select * from storage.s3_multipart_uploads_parts;
-- The first of the setup's four vehicles (the one Ava's active listing offers).
create table as_admin.plan_vehicle as
  select vehicle_id as id from public.listing where description = 'Ava''s active listing';
grant usage on schema as_admin to anon, authenticated, service_role;
grant select on all tables in schema as_admin to anon, authenticated, service_role;

-- ================================================================ public.colour
-- anon: none
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from public.colour', 'colour: anon sees no row');
savepoint probe;
select throws_ok($$insert into public.colour (name) values ('Probe Colour')$$,
                 '42501', null, 'colour: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.colour set name = name where name = 'Plan Silver' returning 1)
select is(count(*), 0::bigint, 'colour: anon updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.colour where name = 'Plan Silver' returning 1)
select is(count(*), 0::bigint, 'colour: anon deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: read
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.colour order by id',
                  'select * from as_admin.colour order by id', 'colour: ava sees every row');
savepoint probe;
select throws_ok($$insert into public.colour (name) values ('Probe Colour')$$,
                 '42501', null, 'colour: ava may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.colour set name = name where name = 'Plan Silver' returning 1)
select is(count(*), 0::bigint, 'colour: ava updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.colour where name = 'Plan Silver' returning 1)
select is(count(*), 0::bigint, 'colour: ava deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: read
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.colour order by id',
                  'select * from as_admin.colour order by id', 'colour: ben sees every row');
savepoint probe;
select throws_ok($$insert into public.colour (name) values ('Probe Colour')$$,
                 '42501', null, 'colour: ben may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.colour set name = name where name = 'Plan Silver' returning 1)
select is(count(*), 0::bigint, 'colour: ben updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.colour where name = 'Plan Silver' returning 1)
select is(count(*), 0::bigint, 'colour: ben deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.colour order by id',
                  'select * from as_admin.colour order by id', 'colour: service_role sees every row');
savepoint probe;
select lives_ok($$insert into public.colour (name) values ('Probe Colour')$$,
                'colour: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.colour set name = name where name = 'Plan Silver' returning 1)
select is(count(*), 1::bigint, 'colour: service_role updates a row') from u;
rollback to savepoint probe; release savepoint probe;
-- Row security lets the delete through; the vehicles that use the colour stop it.
savepoint probe;
select throws_ok($$delete from public.colour where name = 'Plan Silver'$$,
                 '23503', null, 'colour: service_role may delete (only the foreign key stops it)');
rollback to savepoint probe; release savepoint probe;

-- ================================================================ public.drivetrain
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from public.drivetrain', 'drivetrain: anon sees no row');
savepoint probe;
select throws_ok($$insert into public.drivetrain (acronym, description) values ('PRB', 'Probe drivetrain')$$,
                 '42501', null, 'drivetrain: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.drivetrain set acronym = acronym where acronym = 'PLAN' returning 1)
select is(count(*), 0::bigint, 'drivetrain: anon updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.drivetrain where acronym = 'PLAN' returning 1)
select is(count(*), 0::bigint, 'drivetrain: anon deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: read
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.drivetrain order by id',
                  'select * from as_admin.drivetrain order by id', 'drivetrain: ava sees every row');
savepoint probe;
select throws_ok($$insert into public.drivetrain (acronym, description) values ('PRB', 'Probe drivetrain')$$,
                 '42501', null, 'drivetrain: ava may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.drivetrain set acronym = acronym where acronym = 'PLAN' returning 1)
select is(count(*), 0::bigint, 'drivetrain: ava updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.drivetrain where acronym = 'PLAN' returning 1)
select is(count(*), 0::bigint, 'drivetrain: ava deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: read
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.drivetrain order by id',
                  'select * from as_admin.drivetrain order by id', 'drivetrain: ben sees every row');
savepoint probe;
select throws_ok($$insert into public.drivetrain (acronym, description) values ('PRB', 'Probe drivetrain')$$,
                 '42501', null, 'drivetrain: ben may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.drivetrain set acronym = acronym where acronym = 'PLAN' returning 1)
select is(count(*), 0::bigint, 'drivetrain: ben updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.drivetrain where acronym = 'PLAN' returning 1)
select is(count(*), 0::bigint, 'drivetrain: ben deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.drivetrain order by id',
                  'select * from as_admin.drivetrain order by id', 'drivetrain: service_role sees every row');
savepoint probe;
select lives_ok($$insert into public.drivetrain (acronym, description) values ('PRB', 'Probe drivetrain')$$,
                'drivetrain: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.drivetrain set acronym = acronym where acronym = 'PLAN' returning 1)
select is(count(*), 1::bigint, 'drivetrain: service_role updates a row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from public.drivetrain where acronym = 'PLAN'$$,
                 '23503', null, 'drivetrain: service_role may delete (only the foreign key stops it)');
rollback to savepoint probe; release savepoint probe;

-- ================================================================ public.make
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from public.make', 'make: anon sees no row');
savepoint probe;
select throws_ok($$insert into public.make (brand_name) values ('Probe Motors')$$,
                 '42501', null, 'make: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.make set brand_name = brand_name where brand_name = 'Plan Motors' returning 1)
select is(count(*), 0::bigint, 'make: anon updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.make where brand_name = 'Plan Motors' returning 1)
select is(count(*), 0::bigint, 'make: anon deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: read
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.make order by id',
                  'select * from as_admin.make order by id', 'make: ava sees every row');
savepoint probe;
select throws_ok($$insert into public.make (brand_name) values ('Probe Motors')$$,
                 '42501', null, 'make: ava may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.make set brand_name = brand_name where brand_name = 'Plan Motors' returning 1)
select is(count(*), 0::bigint, 'make: ava updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.make where brand_name = 'Plan Motors' returning 1)
select is(count(*), 0::bigint, 'make: ava deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: read
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.make order by id',
                  'select * from as_admin.make order by id', 'make: ben sees every row');
savepoint probe;
select throws_ok($$insert into public.make (brand_name) values ('Probe Motors')$$,
                 '42501', null, 'make: ben may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.make set brand_name = brand_name where brand_name = 'Plan Motors' returning 1)
select is(count(*), 0::bigint, 'make: ben updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.make where brand_name = 'Plan Motors' returning 1)
select is(count(*), 0::bigint, 'make: ben deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.make order by id',
                  'select * from as_admin.make order by id', 'make: service_role sees every row');
savepoint probe;
select lives_ok($$insert into public.make (brand_name) values ('Probe Motors')$$,
                'make: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.make set brand_name = brand_name where brand_name = 'Plan Motors' returning 1)
select is(count(*), 1::bigint, 'make: service_role updates a row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from public.make where brand_name = 'Plan Motors'$$,
                 '23503', null, 'make: service_role may delete (only the foreign key stops it)');
rollback to savepoint probe; release savepoint probe;

-- ================================================================ public.model
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from public.model', 'model: anon sees no row');
savepoint probe;
select throws_ok($$insert into public.model (name, make_id)
                   values ('Probe Model', (select min(id) from as_admin.make))$$,
                 '42501', null, 'model: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.model set name = name where name = 'Plan One' returning 1)
select is(count(*), 0::bigint, 'model: anon updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.model where name = 'Plan One' returning 1)
select is(count(*), 0::bigint, 'model: anon deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: read
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.model order by id',
                  'select * from as_admin.model order by id', 'model: ava sees every row');
savepoint probe;
select throws_ok($$insert into public.model (name, make_id)
                   values ('Probe Model', (select min(id) from public.make))$$,
                 '42501', null, 'model: ava may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.model set name = name where name = 'Plan One' returning 1)
select is(count(*), 0::bigint, 'model: ava updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.model where name = 'Plan One' returning 1)
select is(count(*), 0::bigint, 'model: ava deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: read
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.model order by id',
                  'select * from as_admin.model order by id', 'model: ben sees every row');
savepoint probe;
select throws_ok($$insert into public.model (name, make_id)
                   values ('Probe Model', (select min(id) from public.make))$$,
                 '42501', null, 'model: ben may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.model set name = name where name = 'Plan One' returning 1)
select is(count(*), 0::bigint, 'model: ben updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.model where name = 'Plan One' returning 1)
select is(count(*), 0::bigint, 'model: ben deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.model order by id',
                  'select * from as_admin.model order by id', 'model: service_role sees every row');
savepoint probe;
select lives_ok($$insert into public.model (name, make_id)
                  values ('Probe Model', (select min(id) from public.make))$$,
                'model: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.model set name = name where name = 'Plan One' returning 1)
select is(count(*), 1::bigint, 'model: service_role updates a row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from public.model where name = 'Plan One'$$,
                 '23503', null, 'model: service_role may delete (only the foreign key stops it)');
rollback to savepoint probe; release savepoint probe;

-- ================================================================ public.year
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from public.year', 'year: anon sees no row');
savepoint probe;
select throws_ok($$insert into public.year (name) values ('2040')$$,
                 '42501', null, 'year: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.year set name = name where name = '2031' returning 1)
select is(count(*), 0::bigint, 'year: anon updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.year where name = '2031' returning 1)
select is(count(*), 0::bigint, 'year: anon deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: read
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.year order by id',
                  'select * from as_admin.year order by id', 'year: ava sees every row');
savepoint probe;
select throws_ok($$insert into public.year (name) values ('2040')$$,
                 '42501', null, 'year: ava may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.year set name = name where name = '2031' returning 1)
select is(count(*), 0::bigint, 'year: ava updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.year where name = '2031' returning 1)
select is(count(*), 0::bigint, 'year: ava deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: read
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.year order by id',
                  'select * from as_admin.year order by id', 'year: ben sees every row');
savepoint probe;
select throws_ok($$insert into public.year (name) values ('2040')$$,
                 '42501', null, 'year: ben may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.year set name = name where name = '2031' returning 1)
select is(count(*), 0::bigint, 'year: ben updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.year where name = '2031' returning 1)
select is(count(*), 0::bigint, 'year: ben deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.year order by id',
                  'select * from as_admin.year order by id', 'year: service_role sees every row');
savepoint probe;
select lives_ok($$insert into public.year (name) values ('2040')$$,
                'year: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.year set name = name where name = '2031' returning 1)
select is(count(*), 1::bigint, 'year: service_role updates a row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from public.year where name = '2031'$$,
                 '23503', null, 'year: service_role may delete (only the foreign key stops it)');
rollback to savepoint probe; release savepoint probe;

-- ================================================================ public.vehicle
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from public.vehicle', 'vehicle: anon sees no row');
savepoint probe;
select throws_ok($$insert into public.vehicle (make_id, model_id, year_id, colour_id, drivetrain_id)
                   values ((select make_id from as_admin.model order by id limit 1),
                           (select min(id) from as_admin.model), (select min(id) from as_admin.year),
                           (select min(id) from as_admin.colour), (select min(id) from as_admin.drivetrain))$$,
                 '42501', null, 'vehicle: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.vehicle set make_id = make_id
           where id = (select id from as_admin.plan_vehicle) returning 1)
select is(count(*), 0::bigint, 'vehicle: anon updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.vehicle where id = (select id from as_admin.plan_vehicle) returning 1)
select is(count(*), 0::bigint, 'vehicle: anon deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: read
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.vehicle order by id',
                  'select * from as_admin.vehicle order by id', 'vehicle: ava sees every row');
savepoint probe;
select throws_ok($$insert into public.vehicle (make_id, model_id, year_id, colour_id, drivetrain_id)
                   values ((select make_id from public.model order by id limit 1),
                           (select min(id) from public.model), (select min(id) from public.year),
                           (select min(id) from public.colour), (select min(id) from public.drivetrain))$$,
                 '42501', null, 'vehicle: ava may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.vehicle set make_id = make_id
           where id = (select id from as_admin.plan_vehicle) returning 1)
select is(count(*), 0::bigint, 'vehicle: ava updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.vehicle where id = (select id from as_admin.plan_vehicle) returning 1)
select is(count(*), 0::bigint, 'vehicle: ava deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: read
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.vehicle order by id',
                  'select * from as_admin.vehicle order by id', 'vehicle: ben sees every row');
savepoint probe;
select throws_ok($$insert into public.vehicle (make_id, model_id, year_id, colour_id, drivetrain_id)
                   values ((select make_id from public.model order by id limit 1),
                           (select min(id) from public.model), (select min(id) from public.year),
                           (select min(id) from public.colour), (select min(id) from public.drivetrain))$$,
                 '42501', null, 'vehicle: ben may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.vehicle set make_id = make_id
           where id = (select id from as_admin.plan_vehicle) returning 1)
select is(count(*), 0::bigint, 'vehicle: ben updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.vehicle where id = (select id from as_admin.plan_vehicle) returning 1)
select is(count(*), 0::bigint, 'vehicle: ben deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.vehicle order by id',
                  'select * from as_admin.vehicle order by id', 'vehicle: service_role sees every row');
savepoint probe;
select lives_ok($$insert into public.vehicle (make_id, model_id, year_id, colour_id, drivetrain_id)
                  values ((select make_id from public.model order by id limit 1),
                          (select min(id) from public.model), (select min(id) from public.year),
                          (select min(id) from public.colour), (select min(id) from public.drivetrain))$$,
                'vehicle: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.vehicle set make_id = make_id
           where id = (select id from as_admin.plan_vehicle) returning 1)
select is(count(*), 1::bigint, 'vehicle: service_role updates a row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from public.vehicle where id = (select id from as_admin.plan_vehicle)$$,
                 '23503', null, 'vehicle: service_role may delete (only the foreign key stops it)');
rollback to savepoint probe; release savepoint probe;

-- ================================================================ public.patron
-- Owner rule: user_id = auth.uid().
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from public.patron', 'patron: anon sees no row');
savepoint probe;
select throws_ok($$insert into public.patron (first_name, last_name, email_address, user_id)
                   values ('Probe', 'Patron', 'ava.plan@example.com', 'aaaaaaaa-0000-4000-8000-000000000001')$$,
                 '42501', null, 'patron: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.patron set first_name = first_name
           where user_id = 'aaaaaaaa-0000-4000-8000-000000000001' returning 1)
select is(count(*), 0::bigint, 'patron: anon updates no user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001' returning 1)
select is(count(*), 0::bigint, 'patron: anon deletes no user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: select all, insert own
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.patron order by id',
                  'select * from as_admin.patron order by id', 'patron: ava sees every row');
-- The sign-up trigger already made her patron: remove it (as the admin) first.
savepoint probe;
reset role;
delete from public.patron where user_id = auth.uid();
set local role authenticated;
savepoint probe;
select lives_ok($$insert into public.patron (first_name, last_name, email_address, user_id)
                  values ('Probe', 'Patron', auth.email(), auth.uid())$$,
                'patron: ava may insert her own row');
rollback to savepoint probe; release savepoint probe;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$insert into public.patron (first_name, last_name, email_address, user_id)
                   values ('Probe', 'Patron', 'ben.plan@example.com', 'bbbbbbbb-0000-4000-8000-000000000002')$$,
                 '42501', null, 'patron: ava may not insert Ben''s row');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.patron set first_name = first_name where user_id = auth.uid() returning 1)
select is(count(*), 0::bigint, 'patron: ava updates not even her own row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.patron set first_name = first_name
           where user_id = 'bbbbbbbb-0000-4000-8000-000000000002' returning 1)
select is(count(*), 0::bigint, 'patron: ava updates no other user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.patron
           set email_address = 'ben.plan@example.com', user_id = 'bbbbbbbb-0000-4000-8000-000000000002'
           where user_id = auth.uid() returning 1)
select is(count(*), 0::bigint, 'patron: ava cannot give her row to Ben') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.patron where user_id = auth.uid() returning 1)
select is(count(*), 0::bigint, 'patron: ava deletes not even her own row') from d;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.patron where user_id = 'bbbbbbbb-0000-4000-8000-000000000002' returning 1)
select is(count(*), 0::bigint, 'patron: ava deletes no other user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: select all, insert own
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.patron order by id',
                  'select * from as_admin.patron order by id', 'patron: ben sees every row');
savepoint probe;
reset role;
delete from public.patron where user_id = auth.uid();
set local role authenticated;
savepoint probe;
select lives_ok($$insert into public.patron (first_name, last_name, email_address, user_id)
                  values ('Probe', 'Patron', auth.email(), auth.uid())$$,
                'patron: ben may insert his own row');
rollback to savepoint probe; release savepoint probe;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$insert into public.patron (first_name, last_name, email_address, user_id)
                   values ('Probe', 'Patron', 'ava.plan@example.com', 'aaaaaaaa-0000-4000-8000-000000000001')$$,
                 '42501', null, 'patron: ben may not insert Ava''s row');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.patron set first_name = first_name where user_id = auth.uid() returning 1)
select is(count(*), 0::bigint, 'patron: ben updates not even his own row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.patron set first_name = first_name
           where user_id = 'aaaaaaaa-0000-4000-8000-000000000001' returning 1)
select is(count(*), 0::bigint, 'patron: ben updates no other user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.patron
           set email_address = 'ava.plan@example.com', user_id = 'aaaaaaaa-0000-4000-8000-000000000001'
           where user_id = auth.uid() returning 1)
select is(count(*), 0::bigint, 'patron: ben cannot give his row to Ava') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.patron where user_id = auth.uid() returning 1)
select is(count(*), 0::bigint, 'patron: ben deletes not even his own row') from d;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001' returning 1)
select is(count(*), 0::bigint, 'patron: ben deletes no other user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.patron order by id',
                  'select * from as_admin.patron order by id', 'patron: service_role sees every row');
-- Row security lets it through; Ava already has a patron, so the unique user_id stops it.
savepoint probe;
select throws_ok($$insert into public.patron (first_name, last_name, email_address, user_id)
                   values ('Probe', 'Patron', 'ava.plan@example.com', 'aaaaaaaa-0000-4000-8000-000000000001')$$,
                 '23505', null, 'patron: service_role may insert (only the unique user_id stops it)');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.patron set first_name = first_name
           where user_id = 'aaaaaaaa-0000-4000-8000-000000000001' returning 1)
select is(count(*), 1::bigint, 'patron: service_role updates a user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001' returning 1)
select is(count(*), 1::bigint, 'patron: service_role deletes a user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ================================================================ public.listing
-- Owner rule: patron_id is the caller's patron.
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from public.listing', 'listing: anon sees no row');
savepoint probe;
select throws_ok($$insert into public.listing (price, description, vehicle_id, patron_id)
                   values (12345.00, 'Probe listing', (select min(id) from as_admin.vehicle),
                           (select id from as_admin.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001'))$$,
                 '42501', null, 'listing: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.listing set price = price where description = 'Ava''s active listing' returning 1)
select is(count(*), 0::bigint, 'listing: anon updates no user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.listing where description = 'Ava''s active listing' returning 1)
select is(count(*), 0::bigint, 'listing: anon deletes no user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: read
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.listing order by id',
                  'select * from as_admin.listing order by id', 'listing: ava sees every row');
savepoint probe;
select throws_ok($$insert into public.listing (price, description, vehicle_id, patron_id)
                   values (12345.00, 'Probe listing', (select min(id) from public.vehicle),
                           (select id from public.patron where user_id = auth.uid()))$$,
                 '42501', null, 'listing: ava may not insert her own row');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$insert into public.listing (price, description, vehicle_id, patron_id)
                   values (12345.00, 'Probe listing', (select min(id) from public.vehicle),
                           (select id from public.patron where user_id = 'bbbbbbbb-0000-4000-8000-000000000002'))$$,
                 '42501', null, 'listing: ava may not insert Ben''s row');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.listing set price = price where description = 'Ava''s active listing' returning 1)
select is(count(*), 0::bigint, 'listing: ava updates not even her own row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.listing set price = price where description = 'Ben''s first listing' returning 1)
select is(count(*), 0::bigint, 'listing: ava updates no other user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.listing
           set patron_id = (select id from public.patron where user_id = 'bbbbbbbb-0000-4000-8000-000000000002')
           where description = 'Ava''s active listing' returning 1)
select is(count(*), 0::bigint, 'listing: ava cannot give her listing to Ben') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.listing where description = 'Ava''s active listing' returning 1)
select is(count(*), 0::bigint, 'listing: ava deletes not even her own row') from d;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.listing where description = 'Ben''s first listing' returning 1)
select is(count(*), 0::bigint, 'listing: ava deletes no other user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: read
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.listing order by id',
                  'select * from as_admin.listing order by id', 'listing: ben sees every row');
savepoint probe;
select throws_ok($$insert into public.listing (price, description, vehicle_id, patron_id)
                   values (12345.00, 'Probe listing', (select min(id) from public.vehicle),
                           (select id from public.patron where user_id = auth.uid()))$$,
                 '42501', null, 'listing: ben may not insert his own row');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$insert into public.listing (price, description, vehicle_id, patron_id)
                   values (12345.00, 'Probe listing', (select min(id) from public.vehicle),
                           (select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001'))$$,
                 '42501', null, 'listing: ben may not insert Ava''s row');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.listing set price = price where description = 'Ben''s first listing' returning 1)
select is(count(*), 0::bigint, 'listing: ben updates not even his own row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.listing set price = price where description = 'Ava''s active listing' returning 1)
select is(count(*), 0::bigint, 'listing: ben updates no other user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.listing
           set patron_id = (select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001')
           where description = 'Ben''s first listing' returning 1)
select is(count(*), 0::bigint, 'listing: ben cannot give his listing to Ava') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.listing where description = 'Ben''s first listing' returning 1)
select is(count(*), 0::bigint, 'listing: ben deletes not even his own row') from d;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.listing where description = 'Ava''s active listing' returning 1)
select is(count(*), 0::bigint, 'listing: ben deletes no other user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.listing order by id',
                  'select * from as_admin.listing order by id', 'listing: service_role sees every row');
savepoint probe;
select lives_ok($$insert into public.listing (price, description, vehicle_id, patron_id)
                  values (12345.00, 'Probe listing', (select min(id) from public.vehicle),
                          (select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001'))$$,
                'listing: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.listing set price = price where description = 'Ava''s active listing' returning 1)
select is(count(*), 1::bigint, 'listing: service_role updates a user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.listing where description = 'Ava''s active listing' returning 1)
select is(count(*), 1::bigint, 'listing: service_role deletes a user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ================================================================ public.saved
-- Owner rule: patron_id is the caller's patron. Ava saved Ben's first listing,
-- Ben saved Ava's active listing.
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from public.saved', 'saved: anon sees no row');
savepoint probe;
select throws_ok($$insert into public.saved (patron_id, listing_id)
                   values ((select id from as_admin.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001'),
                           (select id from as_admin.listing where description = 'Ben''s second listing'))$$,
                 '42501', null, 'saved: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.saved set saved_on = saved_on
           where patron_id = (select id from as_admin.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001')
           returning 1)
select is(count(*), 0::bigint, 'saved: anon updates no user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.saved
           where patron_id = (select id from as_admin.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001')
           returning 1)
select is(count(*), 0::bigint, 'saved: anon deletes no user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: own rows only
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.saved order by id',
                  $$select * from as_admin.saved
                    where patron_id in (select id from public.patron where user_id = auth.uid()) order by id$$,
                  'saved: ava sees exactly her own rows');
savepoint probe;
select lives_ok($$insert into public.saved (patron_id, listing_id)
                  values ((select id from public.patron where user_id = auth.uid()),
                          (select id from public.listing where description = 'Ben''s second listing'))$$,
                'saved: ava may save a listing for herself');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$insert into public.saved (patron_id, listing_id)
                   values ((select id from public.patron where user_id = 'bbbbbbbb-0000-4000-8000-000000000002'),
                           (select id from public.listing where description = 'Ava''s sold listing'))$$,
                 '42501', null, 'saved: ava may not save a listing for Ben');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.saved set saved_on = saved_on
           where patron_id = (select id from public.patron where user_id = auth.uid()) returning 1)
select is(count(*), 1::bigint, 'saved: ava updates her own row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.saved set saved_on = saved_on
           where patron_id = (select id from public.patron where user_id = 'bbbbbbbb-0000-4000-8000-000000000002')
           returning 1)
select is(count(*), 0::bigint, 'saved: ava updates no other user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update public.saved
                   set patron_id = (select id from public.patron where user_id = 'bbbbbbbb-0000-4000-8000-000000000002')
                   where patron_id = (select id from public.patron where user_id = auth.uid())$$,
                 '42501', null, 'saved: ava cannot give her row to Ben');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.saved
           where patron_id = (select id from public.patron where user_id = auth.uid()) returning 1)
select is(count(*), 1::bigint, 'saved: ava deletes her own row') from d;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.saved
           where patron_id = (select id from public.patron where user_id = 'bbbbbbbb-0000-4000-8000-000000000002')
           returning 1)
select is(count(*), 0::bigint, 'saved: ava deletes no other user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: own rows only
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.saved order by id',
                  $$select * from as_admin.saved
                    where patron_id in (select id from public.patron where user_id = auth.uid()) order by id$$,
                  'saved: ben sees exactly his own rows');
savepoint probe;
select lives_ok($$insert into public.saved (patron_id, listing_id)
                  values ((select id from public.patron where user_id = auth.uid()),
                          (select id from public.listing where description = 'Ava''s sold listing'))$$,
                'saved: ben may save a listing for himself');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$insert into public.saved (patron_id, listing_id)
                   values ((select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001'),
                           (select id from public.listing where description = 'Ben''s second listing'))$$,
                 '42501', null, 'saved: ben may not save a listing for Ava');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.saved set saved_on = saved_on
           where patron_id = (select id from public.patron where user_id = auth.uid()) returning 1)
select is(count(*), 1::bigint, 'saved: ben updates his own row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.saved set saved_on = saved_on
           where patron_id = (select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001')
           returning 1)
select is(count(*), 0::bigint, 'saved: ben updates no other user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update public.saved
                   set patron_id = (select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001')
                   where patron_id = (select id from public.patron where user_id = auth.uid())$$,
                 '42501', null, 'saved: ben cannot give his row to Ava');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.saved
           where patron_id = (select id from public.patron where user_id = auth.uid()) returning 1)
select is(count(*), 1::bigint, 'saved: ben deletes his own row') from d;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.saved
           where patron_id = (select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001')
           returning 1)
select is(count(*), 0::bigint, 'saved: ben deletes no other user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.saved order by id',
                  'select * from as_admin.saved order by id', 'saved: service_role sees every row');
savepoint probe;
select lives_ok($$insert into public.saved (patron_id, listing_id)
                  values ((select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001'),
                          (select id from public.listing where description = 'Ben''s second listing'))$$,
                'saved: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update public.saved set saved_on = saved_on
           where patron_id = (select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001')
           returning 1)
select is(count(*), 1::bigint, 'saved: service_role updates a user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from public.saved
           where patron_id = (select id from public.patron where user_id = 'aaaaaaaa-0000-4000-8000-000000000001')
           returning 1)
select is(count(*), 1::bigint, 'saved: service_role deletes a user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ================================================================ public.listings_with_details
reset role;
select columns_are('public', 'listings_with_details',
                   array['id', 'price', 'description', 'listed_on', 'brand', 'model', 'year', 'colour', 'drivetrain'],
                   'listings_with_details: exactly the planned columns');
-- anon: denied
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select throws_ok('select * from public.listings_with_details', '42501', null,
                 'listings_with_details: anon is refused');
-- ava: read
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.listings_with_details order by id',
                  'select * from as_admin.listings_with_details order by id',
                  'listings_with_details: ava sees every row');
-- ben: read
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.listings_with_details order by id',
                  'select * from as_admin.listings_with_details order by id',
                  'listings_with_details: ben sees every row');
-- service: read
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.listings_with_details order by id',
                  'select * from as_admin.listings_with_details order by id',
                  'listings_with_details: service_role sees every row');

-- ================================================================ public.saved_listings
-- anon: denied
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select throws_ok('select * from public.saved_listings', '42501', null,
                 'saved_listings: anon is refused');
-- ava: own rows
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.saved_listings order by id',
                  $$select * from as_admin.saved_listings
                    where patron_id in (select id from public.patron where user_id = auth.uid()) order by id$$,
                  'saved_listings: ava sees exactly her own rows');
-- ben: own rows
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.saved_listings order by id',
                  $$select * from as_admin.saved_listings
                    where patron_id in (select id from public.patron where user_id = auth.uid()) order by id$$,
                  'saved_listings: ben sees exactly his own rows');
-- service: read
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.saved_listings order by id',
                  'select * from as_admin.saved_listings order by id',
                  'saved_listings: service_role sees every row');

-- ================================================================ public.count_of_vehicles_by_brand
reset role;
select columns_are('public', 'count_of_vehicles_by_brand', array['brand', 'vehicles_available'],
                   'count_of_vehicles_by_brand: exactly the planned columns');
-- anon: read
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select results_eq('select * from public.count_of_vehicles_by_brand order by brand',
                  'select * from as_admin.count_of_vehicles_by_brand order by brand',
                  'count_of_vehicles_by_brand: anon sees every row');
-- ava: read
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from public.count_of_vehicles_by_brand order by brand',
                  'select * from as_admin.count_of_vehicles_by_brand order by brand',
                  'count_of_vehicles_by_brand: ava sees every row');
-- ben: read
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from public.count_of_vehicles_by_brand order by brand',
                  'select * from as_admin.count_of_vehicles_by_brand order by brand',
                  'count_of_vehicles_by_brand: ben sees every row');
-- service: read
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from public.count_of_vehicles_by_brand order by brand',
                  'select * from as_admin.count_of_vehicles_by_brand order by brand',
                  'count_of_vehicles_by_brand: service_role sees every row');

-- ================================================================ storage.buckets
-- No owner rule; the writes aim at the vehicle-photos bucket (made by the migrations).
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from storage.buckets', 'storage.buckets: anon sees no row');
savepoint probe;
select throws_ok($$insert into storage.buckets (id, name) values ('probe-bucket', 'probe-bucket')$$,
                 '42501', null, 'storage.buckets: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.buckets set id = id where id = 'vehicle-photos' returning 1)
select is(count(*), 0::bigint, 'storage.buckets: anon updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.buckets where id = 'vehicle-photos' returning 1)
select is(count(*), 0::bigint, 'storage.buckets: anon deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: none
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select is_empty('select * from storage.buckets', 'storage.buckets: ava sees no row');
savepoint probe;
select throws_ok($$insert into storage.buckets (id, name) values ('probe-bucket', 'probe-bucket')$$,
                 '42501', null, 'storage.buckets: ava may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.buckets set id = id where id = 'vehicle-photos' returning 1)
select is(count(*), 0::bigint, 'storage.buckets: ava updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.buckets where id = 'vehicle-photos' returning 1)
select is(count(*), 0::bigint, 'storage.buckets: ava deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: none
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select is_empty('select * from storage.buckets', 'storage.buckets: ben sees no row');
savepoint probe;
select throws_ok($$insert into storage.buckets (id, name) values ('probe-bucket', 'probe-bucket')$$,
                 '42501', null, 'storage.buckets: ben may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.buckets set id = id where id = 'vehicle-photos' returning 1)
select is(count(*), 0::bigint, 'storage.buckets: ben updates no row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.buckets where id = 'vehicle-photos' returning 1)
select is(count(*), 0::bigint, 'storage.buckets: ben deletes no row') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from storage.buckets order by id',
                  'select * from as_admin.buckets order by id', 'storage.buckets: service_role sees every row');
savepoint probe;
select lives_ok($$insert into storage.buckets (id, name) values ('probe-bucket', 'probe-bucket')$$,
                'storage.buckets: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.buckets set id = id where id = 'vehicle-photos' returning 1)
select is(count(*), 1::bigint, 'storage.buckets: service_role updates a row') from u;
rollback to savepoint probe; release savepoint probe;
-- Row security lets the delete through; the bucket's photos stop it.
savepoint probe;
select throws_ok($$delete from storage.buckets where id = 'vehicle-photos'$$,
                 '23503', null, 'storage.buckets: service_role may delete (only the foreign key stops it)');
rollback to savepoint probe; release savepoint probe;

-- ================================================================ storage.objects
-- Owner rule: the first folder of the name is the caller's user id. The setup gave
-- Ava one photo and Ben two, all of listings on sale; a write aims at the first of
-- a user's photos by name. Inserts use the plan's sample: <user id>/<the user's
-- first listing on sale>/probe.jpg.
-- anon: read
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select results_eq('select * from storage.objects order by id',
                  'select * from as_admin.objects order by id', 'storage.objects: anon sees every row');
savepoint probe;
select throws_ok($$insert into storage.objects (bucket_id, name)
                   values ('vehicle-photos',
                           'aaaaaaaa-0000-4000-8000-000000000001/' || (select min(l.id) from as_admin.listing l
                             join as_admin.patron p on p.id = l.patron_id
                             where p.user_id = 'aaaaaaaa-0000-4000-8000-000000000001' and l.is_active)::text || '/probe.jpg')$$,
                 '42501', null, 'storage.objects: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.objects set id = id
           where id = (select id from as_admin.objects
                       where owner_id = 'aaaaaaaa-0000-4000-8000-000000000001' order by name limit 1)
           returning 1)
select is(count(*), 0::bigint, 'storage.objects: anon updates no user''s row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.objects
           where id = (select id from as_admin.objects
                       where owner_id = 'aaaaaaaa-0000-4000-8000-000000000001' order by name limit 1)
           returning 1)
select is(count(*), 0::bigint, 'storage.objects: anon deletes no user''s row') from d;
rollback to savepoint probe; release savepoint probe;

-- ava: select all, insert, update and delete own
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select * from storage.objects order by id',
                  'select * from as_admin.objects order by id', 'storage.objects: ava sees every row');
savepoint probe;
select lives_ok($$insert into storage.objects (bucket_id, name)
                  values ('vehicle-photos',
                          auth.uid()::text || '/' || (select min(l.id) from public.listing l
                            join public.patron p on p.id = l.patron_id
                            where p.user_id = auth.uid() and l.is_active)::text || '/probe.jpg')$$,
                'storage.objects: ava may upload to her own folder');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$insert into storage.objects (bucket_id, name)
                   values ('vehicle-photos',
                           'bbbbbbbb-0000-4000-8000-000000000002/' || (select min(l.id) from public.listing l
                             join public.patron p on p.id = l.patron_id
                             where p.user_id = 'bbbbbbbb-0000-4000-8000-000000000002' and l.is_active)::text || '/probe.jpg')$$,
                 '42501', null, 'storage.objects: ava may not upload to Ben''s folder');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.objects set id = id
           where id = (select id from as_admin.objects where owner_id = auth.uid()::text order by name limit 1)
           returning 1)
select is(count(*), 1::bigint, 'storage.objects: ava updates her own photo') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.objects set id = id
           where id = (select id from as_admin.objects
                       where owner_id = 'bbbbbbbb-0000-4000-8000-000000000002' order by name limit 1)
           returning 1)
select is(count(*), 0::bigint, 'storage.objects: ava updates no other user''s photo') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update storage.objects
                   set name = 'bbbbbbbb-0000-4000-8000-000000000002/' || (select min(l.id) from public.listing l
                                join public.patron p on p.id = l.patron_id
                                where p.user_id = 'bbbbbbbb-0000-4000-8000-000000000002' and l.is_active)::text || '/probe.jpg'
                   where id = (select id from as_admin.objects where owner_id = auth.uid()::text order by name limit 1)$$,
                 '42501', null, 'storage.objects: ava cannot move her photo to Ben''s folder');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.objects
           where id = (select id from as_admin.objects where owner_id = auth.uid()::text order by name limit 1)
           returning 1)
select is(count(*), 1::bigint, 'storage.objects: ava deletes her own photo') from d;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.objects
           where id = (select id from as_admin.objects
                       where owner_id = 'bbbbbbbb-0000-4000-8000-000000000002' order by name limit 1)
           returning 1)
select is(count(*), 0::bigint, 'storage.objects: ava deletes no other user''s photo') from d;
rollback to savepoint probe; release savepoint probe;

-- ben: select all, insert, update and delete own
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq('select * from storage.objects order by id',
                  'select * from as_admin.objects order by id', 'storage.objects: ben sees every row');
savepoint probe;
select lives_ok($$insert into storage.objects (bucket_id, name)
                  values ('vehicle-photos',
                          auth.uid()::text || '/' || (select min(l.id) from public.listing l
                            join public.patron p on p.id = l.patron_id
                            where p.user_id = auth.uid() and l.is_active)::text || '/probe.jpg')$$,
                'storage.objects: ben may upload to his own folder');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$insert into storage.objects (bucket_id, name)
                   values ('vehicle-photos',
                           'aaaaaaaa-0000-4000-8000-000000000001/' || (select min(l.id) from public.listing l
                             join public.patron p on p.id = l.patron_id
                             where p.user_id = 'aaaaaaaa-0000-4000-8000-000000000001' and l.is_active)::text || '/probe.jpg')$$,
                 '42501', null, 'storage.objects: ben may not upload to Ava''s folder');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.objects set id = id
           where id = (select id from as_admin.objects where owner_id = auth.uid()::text order by name limit 1)
           returning 1)
select is(count(*), 1::bigint, 'storage.objects: ben updates his own photo') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.objects set id = id
           where id = (select id from as_admin.objects
                       where owner_id = 'aaaaaaaa-0000-4000-8000-000000000001' order by name limit 1)
           returning 1)
select is(count(*), 0::bigint, 'storage.objects: ben updates no other user''s photo') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update storage.objects
                   set name = 'aaaaaaaa-0000-4000-8000-000000000001/' || (select min(l.id) from public.listing l
                                join public.patron p on p.id = l.patron_id
                                where p.user_id = 'aaaaaaaa-0000-4000-8000-000000000001' and l.is_active)::text || '/probe.jpg'
                   where id = (select id from as_admin.objects where owner_id = auth.uid()::text order by name limit 1)$$,
                 '42501', null, 'storage.objects: ben cannot move his photo to Ava''s folder');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.objects
           where id = (select id from as_admin.objects where owner_id = auth.uid()::text order by name limit 1)
           returning 1)
select is(count(*), 1::bigint, 'storage.objects: ben deletes his own photo') from d;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.objects
           where id = (select id from as_admin.objects
                       where owner_id = 'aaaaaaaa-0000-4000-8000-000000000001' order by name limit 1)
           returning 1)
select is(count(*), 0::bigint, 'storage.objects: ben deletes no other user''s photo') from d;
rollback to savepoint probe; release savepoint probe;

-- service: all (a user's row: Ava's, as for every table with an owner rule)
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from storage.objects order by id',
                  'select * from as_admin.objects order by id', 'storage.objects: service_role sees every row');
savepoint probe;
select lives_ok($$insert into storage.objects (bucket_id, name)
                  values ('vehicle-photos',
                          'aaaaaaaa-0000-4000-8000-000000000001/' || (select min(l.id) from public.listing l
                            join public.patron p on p.id = l.patron_id
                            where p.user_id = 'aaaaaaaa-0000-4000-8000-000000000001' and l.is_active)::text || '/probe.jpg')$$,
                'storage.objects: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.objects set id = id
           where id = (select id from as_admin.objects
                       where owner_id = 'aaaaaaaa-0000-4000-8000-000000000001' order by name limit 1)
           returning 1)
select is(count(*), 1::bigint, 'storage.objects: service_role updates a user''s photo') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.objects
           where id = (select id from as_admin.objects
                       where owner_id = 'aaaaaaaa-0000-4000-8000-000000000001' order by name limit 1)
           returning 1)
select is(count(*), 1::bigint, 'storage.objects: service_role deletes a user''s photo') from d;
rollback to savepoint probe; release savepoint probe;

-- ================================================================ storage.s3_multipart_uploads
-- No owner rule, no policy: anon and authenticated hold select only and see no row.
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from storage.s3_multipart_uploads', 'storage.s3_multipart_uploads: anon sees no row');
savepoint probe;
select throws_ok($$insert into storage.s3_multipart_uploads (id, upload_signature, bucket_id, key, version) values ('probe-upload', 'probe-signature', 'vehicle-photos', 'probe/large.jpg', 'probe-version')$$,
                 '42501', null, 'storage.s3_multipart_uploads: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update storage.s3_multipart_uploads set key = key where id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads: anon may not update');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from storage.s3_multipart_uploads where id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads: anon may not delete');
rollback to savepoint probe; release savepoint probe;

-- ava: none
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select is_empty('select * from storage.s3_multipart_uploads', 'storage.s3_multipart_uploads: ava sees no row');
savepoint probe;
select throws_ok($$insert into storage.s3_multipart_uploads (id, upload_signature, bucket_id, key, version) values ('probe-upload', 'probe-signature', 'vehicle-photos', 'probe/large.jpg', 'probe-version')$$,
                 '42501', null, 'storage.s3_multipart_uploads: ava may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update storage.s3_multipart_uploads set key = key where id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads: ava may not update');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from storage.s3_multipart_uploads where id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads: ava may not delete');
rollback to savepoint probe; release savepoint probe;

-- ben: none
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select is_empty('select * from storage.s3_multipart_uploads', 'storage.s3_multipart_uploads: ben sees no row');
savepoint probe;
select throws_ok($$insert into storage.s3_multipart_uploads (id, upload_signature, bucket_id, key, version) values ('probe-upload', 'probe-signature', 'vehicle-photos', 'probe/large.jpg', 'probe-version')$$,
                 '42501', null, 'storage.s3_multipart_uploads: ben may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update storage.s3_multipart_uploads set key = key where id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads: ben may not update');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from storage.s3_multipart_uploads where id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads: ben may not delete');
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from storage.s3_multipart_uploads order by id',
                  'select * from as_admin.s3_multipart_uploads order by id', 'storage.s3_multipart_uploads: service_role sees every row');
savepoint probe;
select lives_ok($$insert into storage.s3_multipart_uploads (id, upload_signature, bucket_id, key, version) values ('probe-upload', 'probe-signature', 'vehicle-photos', 'probe/large.jpg', 'probe-version')$$,
                'storage.s3_multipart_uploads: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.s3_multipart_uploads set key = key where id = 'plan-upload' returning 1)
select is(count(*), 1::bigint, 'storage.s3_multipart_uploads: service_role updates a row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.s3_multipart_uploads where id = 'plan-upload' returning 1)
select is(count(*), 1::bigint, 'storage.s3_multipart_uploads: service_role deletes a row') from d;
rollback to savepoint probe; release savepoint probe;

-- ================================================================ storage.s3_multipart_uploads_parts
-- No owner rule, no policy: anon and authenticated hold select only and see no row.
-- anon: none
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is_empty('select * from storage.s3_multipart_uploads_parts', 'storage.s3_multipart_uploads_parts: anon sees no row');
savepoint probe;
select throws_ok($$insert into storage.s3_multipart_uploads_parts (upload_id, part_number, bucket_id, key, etag, version) values ((select min(id) from storage.s3_multipart_uploads), 2, 'vehicle-photos', 'plan/large.jpg', 'probe-etag', 'plan-version')$$,
                 '42501', null, 'storage.s3_multipart_uploads_parts: anon may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update storage.s3_multipart_uploads_parts set key = key where upload_id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads_parts: anon may not update');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from storage.s3_multipart_uploads_parts where upload_id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads_parts: anon may not delete');
rollback to savepoint probe; release savepoint probe;

-- ava: none
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select is_empty('select * from storage.s3_multipart_uploads_parts', 'storage.s3_multipart_uploads_parts: ava sees no row');
savepoint probe;
select throws_ok($$insert into storage.s3_multipart_uploads_parts (upload_id, part_number, bucket_id, key, etag, version) values ((select min(id) from storage.s3_multipart_uploads), 2, 'vehicle-photos', 'plan/large.jpg', 'probe-etag', 'plan-version')$$,
                 '42501', null, 'storage.s3_multipart_uploads_parts: ava may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update storage.s3_multipart_uploads_parts set key = key where upload_id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads_parts: ava may not update');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from storage.s3_multipart_uploads_parts where upload_id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads_parts: ava may not delete');
rollback to savepoint probe; release savepoint probe;

-- ben: none
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select is_empty('select * from storage.s3_multipart_uploads_parts', 'storage.s3_multipart_uploads_parts: ben sees no row');
savepoint probe;
select throws_ok($$insert into storage.s3_multipart_uploads_parts (upload_id, part_number, bucket_id, key, etag, version) values ((select min(id) from storage.s3_multipart_uploads), 2, 'vehicle-photos', 'plan/large.jpg', 'probe-etag', 'plan-version')$$,
                 '42501', null, 'storage.s3_multipart_uploads_parts: ben may not insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$update storage.s3_multipart_uploads_parts set key = key where upload_id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads_parts: ben may not update');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
select throws_ok($$delete from storage.s3_multipart_uploads_parts where upload_id = 'plan-upload'$$,
                 '42501', null, 'storage.s3_multipart_uploads_parts: ben may not delete');
rollback to savepoint probe; release savepoint probe;

-- service: all
reset role;
set local role service_role;
select set_config('request.jwt.claims', '{"role":"service_role"}', true);
select results_eq('select * from storage.s3_multipart_uploads_parts order by id',
                  'select * from as_admin.s3_multipart_uploads_parts order by id', 'storage.s3_multipart_uploads_parts: service_role sees every row');
savepoint probe;
select lives_ok($$insert into storage.s3_multipart_uploads_parts (upload_id, part_number, bucket_id, key, etag, version) values ((select min(id) from storage.s3_multipart_uploads), 2, 'vehicle-photos', 'plan/large.jpg', 'probe-etag', 'plan-version')$$,
                'storage.s3_multipart_uploads_parts: service_role may insert');
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with u as (update storage.s3_multipart_uploads_parts set key = key where upload_id = 'plan-upload' returning 1)
select is(count(*), 1::bigint, 'storage.s3_multipart_uploads_parts: service_role updates a row') from u;
rollback to savepoint probe; release savepoint probe;
savepoint probe;
with d as (delete from storage.s3_multipart_uploads_parts where upload_id = 'plan-upload' returning 1)
select is(count(*), 1::bigint, 'storage.s3_multipart_uploads_parts: service_role deletes a row') from d;
rollback to savepoint probe; release savepoint probe;

-- ================================================================ functions
-- One assertion per function and persona (Ava and Ben share the role).
reset role;
select function_privs_are('public', 'delete_current_user', array[]::name[], 'anon', array[]::text[],
                          'delete_current_user(): anon may not execute');
select function_privs_are('public', 'delete_current_user', array[]::name[], 'authenticated', array['EXECUTE'],
                          'delete_current_user(): ava may execute');
select function_privs_are('public', 'delete_current_user', array[]::name[], 'authenticated', array['EXECUTE'],
                          'delete_current_user(): ben may execute');
select function_privs_are('public', 'delete_current_user', array[]::name[], 'service_role', array['EXECUTE'],
                          'delete_current_user(): service_role may execute');
select function_privs_are('public', 'handle_new_user', array[]::name[], 'anon', array[]::text[],
                          'handle_new_user(): anon may not execute');
select function_privs_are('public', 'handle_new_user', array[]::name[], 'authenticated', array[]::text[],
                          'handle_new_user(): ava may not execute');
select function_privs_are('public', 'handle_new_user', array[]::name[], 'authenticated', array[]::text[],
                          'handle_new_user(): ben may not execute');
select function_privs_are('public', 'handle_new_user', array[]::name[], 'service_role', array['EXECUTE'],
                          'handle_new_user(): service_role may execute');
-- Supabase's own storage functions: everyone may call them.
select function_privs_are('storage', 'foldername', array['text'], 'anon', array['EXECUTE'],
                          'storage.foldername(text): anon may execute');
select function_privs_are('storage', 'foldername', array['text'], 'authenticated', array['EXECUTE'],
                          'storage.foldername(text): ava may execute');
select function_privs_are('storage', 'foldername', array['text'], 'authenticated', array['EXECUTE'],
                          'storage.foldername(text): ben may execute');
select function_privs_are('storage', 'foldername', array['text'], 'service_role', array['EXECUTE'],
                          'storage.foldername(text): service_role may execute');
select function_privs_are('storage', 'filename', array['text'], 'anon', array['EXECUTE'],
                          'storage.filename(text): anon may execute');
select function_privs_are('storage', 'filename', array['text'], 'authenticated', array['EXECUTE'],
                          'storage.filename(text): ava may execute');
select function_privs_are('storage', 'filename', array['text'], 'authenticated', array['EXECUTE'],
                          'storage.filename(text): ben may execute');
select function_privs_are('storage', 'filename', array['text'], 'service_role', array['EXECUTE'],
                          'storage.filename(text): service_role may execute');
select function_privs_are('storage', 'extension', array['text'], 'anon', array['EXECUTE'],
                          'storage.extension(text): anon may execute');
select function_privs_are('storage', 'extension', array['text'], 'authenticated', array['EXECUTE'],
                          'storage.extension(text): ava may execute');
select function_privs_are('storage', 'extension', array['text'], 'authenticated', array['EXECUTE'],
                          'storage.extension(text): ben may execute');
select function_privs_are('storage', 'extension', array['text'], 'service_role', array['EXECUTE'],
                          'storage.extension(text): service_role may execute');
select function_privs_are('storage', 'protect_delete', array[]::name[], 'anon', array['EXECUTE'],
                          'storage.protect_delete(): anon may execute');
select function_privs_are('storage', 'protect_delete', array[]::name[], 'authenticated', array['EXECUTE'],
                          'storage.protect_delete(): ava may execute');
select function_privs_are('storage', 'protect_delete', array[]::name[], 'authenticated', array['EXECUTE'],
                          'storage.protect_delete(): ben may execute');
select function_privs_are('storage', 'protect_delete', array[]::name[], 'service_role', array['EXECUTE'],
                          'storage.protect_delete(): service_role may execute');
select function_privs_are('storage', 'update_updated_at_column', array[]::name[], 'anon', array['EXECUTE'],
                          'storage.update_updated_at_column(): anon may execute');
select function_privs_are('storage', 'update_updated_at_column', array[]::name[], 'authenticated', array['EXECUTE'],
                          'storage.update_updated_at_column(): ava may execute');
select function_privs_are('storage', 'update_updated_at_column', array[]::name[], 'authenticated', array['EXECUTE'],
                          'storage.update_updated_at_column(): ben may execute');
select function_privs_are('storage', 'update_updated_at_column', array[]::name[], 'service_role', array['EXECUTE'],
                          'storage.update_updated_at_column(): service_role may execute');

-- ================================================================ custom checks
-- anon's brand counts equal the active listings per brand
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select results_eq('select brand, vehicles_available from public.count_of_vehicles_by_brand order by brand',
                  $$select mk.brand_name, count(*)
                    from as_admin.listing l
                    join as_admin.vehicle v on v.id = l.vehicle_id
                    join as_admin.make mk on mk.id = v.make_id
                    where l.is_active
                    group by mk.brand_name order by mk.brand_name$$,
                  'anon''s brand counts equal the active listings per brand');

-- listings_with_details shows active listings only
reset role;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq('select id from public.listings_with_details order by id',
                  'select l.id from as_admin.listing l where l.is_active order by l.id',
                  'listings_with_details shows active listings only');

-- a user may create their own patron row without naming user_id
savepoint probe;
reset role;
delete from public.patron where user_id = auth.uid();
set local role authenticated;
select results_eq($$insert into public.patron (first_name, last_name, email_address)
                    values ('Ava', 'Planwright', 'ava.plan@example.com')
                    returning user_id = auth.uid()$$,
                  array[true],
                  'a user may create their own patron row without naming user_id');
rollback to savepoint probe; release savepoint probe;

-- a user may not create a patron row with another email
savepoint probe;
reset role;
delete from public.patron where user_id = auth.uid();
set local role authenticated;
savepoint probe;
select throws_ok($$insert into public.patron (first_name, last_name, email_address)
                   values ('Ava', 'Planwright', 'someone.else@example.com')$$,
                 '42501', null, 'a user may not create a patron row with another email');
rollback to savepoint probe; release savepoint probe;
rollback to savepoint probe; release savepoint probe;

-- anon cannot call delete_current_user
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select throws_ok('select public.delete_current_user()', '42501', null,
                 'anon cannot call delete_current_user');

-- delete_current_user removes the caller's account and data, nothing else.
-- In a savepoint rolled back, so the storage checks after it still have Ava.
-- (pgTAP keeps its test counter in a table, so an assertion whose savepoint is
-- rolled back is missing from finish()'s count; pg_prove counts the output.)
savepoint probe;
reset role;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
create temporary table plan_before as
with mine as (select id from public.patron where user_id = auth.uid()),
     my_listings as (select id from public.listing where patron_id in (select id from mine))
select (select count(*) from auth.users) as users,
       (select count(*) from public.patron) as patrons,
       (select count(*) from public.listing) as listings,
       (select count(*) from public.saved) as saved,
       (select count(*) from my_listings) as my_listings,
       (select count(*) from public.saved
         where patron_id in (select id from mine) or listing_id in (select id from my_listings)) as saved_gone;
set local role authenticated;
select public.delete_current_user();
reset role;
select ok((select not exists (select 1 from auth.users where id = auth.uid())
              and not exists (select 1 from public.patron where user_id = auth.uid())
              and (select count(*) from auth.users) = b.users - 1
              and (select count(*) from public.patron) = b.patrons - 1
              and (select count(*) from public.listing) = b.listings - b.my_listings
              and (select count(*) from public.saved) = b.saved - b.saved_gone
              and exists (select 1 from public.patron where email_address = 'ben.plan@example.com')
           from plan_before b),
          'delete_current_user removes the caller''s account and data, nothing else');
rollback to savepoint probe; release savepoint probe;

-- a photo of a sold listing is hidden from everyone but its seller
-- (the check's `before` verbatim, as the admin: a photo of Ava's sold listing)
savepoint probe;
reset role;
insert into storage.objects (bucket_id, name)
select 'vehicle-photos', p.user_id::text || '/' || l.id::text || '/sold.jpg'
from public.listing l join public.patron p on p.id = l.patron_id
where p.email_address = 'ava.plan@example.com' and not l.is_active;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"bbbbbbbb-0000-4000-8000-000000000002","email":"ben.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"full_name":"Ben Probert"},"is_anonymous":false}', true);
select results_eq($$select count(*) from storage.objects where name like '%/sold.jpg'$$,
                  array[0::bigint],
                  'a photo of a sold listing is hidden from everyone but its seller');
rollback to savepoint probe; release savepoint probe;

-- a seller sees their own photo of a sold listing
savepoint probe;
reset role;
insert into storage.objects (bucket_id, name)
select 'vehicle-photos', p.user_id::text || '/' || l.id::text || '/sold.jpg'
from public.listing l join public.patron p on p.id = l.patron_id
where p.email_address = 'ava.plan@example.com' and not l.is_active;
set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"aaaaaaaa-0000-4000-8000-000000000001","email":"ava.plan@example.com","aud":"authenticated","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"first_name":"Ava","last_name":"Planwright"},"is_anonymous":false}', true);
select results_eq($$select count(*) from storage.objects where name like '%/sold.jpg'$$,
                  array[1::bigint],
                  'a seller sees their own photo of a sold listing');
rollback to savepoint probe; release savepoint probe;

-- anonymous visitors cannot upload photos
-- The last assertion, so no savepoint: the final rollback undoes a wrongful upload,
-- and finish() sees the test counter this assertion set (pgTAP keeps it in a
-- table, so the ones set inside rolled-back savepoints are undone with them).
reset role;
set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select throws_ok($$insert into storage.objects (bucket_id, name) values ('vehicle-photos', 'anyone/1/x.jpg')$$,
                 '42501', null, 'anonymous visitors cannot upload photos');

select * from finish();
rollback;
