-- Anonymous visitors, without BEGIN. Under pg_prove each statement then commits on
-- its own (psql's autocommit), so `set local role` would end with its statement:
-- the file uses `set role`, which lasts for the file under pg_prove and is undone
-- with the file's rolled-back transaction under pgwarden.
select plan(3);

set role anon;
select is((select count(*)::int from public.listing), 0, 'anon sees no listing rows');
select throws_ok(
  $$insert into public.colour (name) values ('Ultraviolet')$$,
  '42501', null, 'anon may not add a colour'
);
select is(current_user::text, 'anon', 'the file runs as anon after set role');

select * from finish();
