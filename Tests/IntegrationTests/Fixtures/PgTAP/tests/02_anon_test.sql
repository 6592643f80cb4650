-- Anonymous visitors, without BEGIN: pgwarden runs the file in its own transaction
-- and rolls it back, so `set local role` ends with the file.
select plan(3);

set local role anon;
select is((select count(*)::int from public.listing), 0, 'anon sees no listing rows');
select throws_ok(
  $$insert into public.colour (name) values ('Ultraviolet')$$,
  '42501', null, 'anon may not add a colour'
);
select is(current_user::text, 'anon', 'the file runs as anon after set local role');

select * from finish();
