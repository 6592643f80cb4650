-- pgwarden's local stand-in for pgsodium (libsodium in PostgreSQL, a C extension
-- plain PostgreSQL cannot load). A registration: a schema dump's
-- `create extension if not exists pgsodium with schema pgsodium` and its
-- `comment on extension pgsodium` apply, and what pgsodium's own script makes that a
-- project's SQL may name exists: its three roles (as pgsodium creates them: nologin,
-- inherit; keymaker holds keyholder and keyiduser, keyholder holds keyiduser), USAGE
-- on the schema for everyone, the pgsodium_masks schema. Supabase's image, where it
-- installs pgsodium, also grants the three roles to postgres with admin option and
-- pgsodium_keyholder to service_role; so does this.
--
-- Also the sequence behind its key table's key_id (a bigserial), which a data dump of
-- such a project sets (`select pg_catalog.setval('"pgsodium"."key_key_id_seq"', 1,
-- false)`): ALL on it to postgres and pgsodium_keymaker, as dumps' ACLs show.
--
-- Its functions, key table and views are absent, on purpose: a local
-- crypto_aead_det_encrypt could only return the plaintext or invented bytes. A call
-- fails (42883, function does not exist) and pgwarden's hint says why.
-- Facts and sources: docs/supabase-twin.md, "Stand-ins".

do $roles$
declare
  wanted text;
begin
  foreach wanted in array array['pgsodium_keyiduser', 'pgsodium_keyholder', 'pgsodium_keymaker'] loop
    if not exists (select 1 from pg_catalog.pg_roles where rolname = wanted) then
      execute format('create role %I nologin nosuperuser nocreatedb nocreaterole inherit noreplication', wanted);
    end if;
  end loop;
end
$roles$;

-- Memberships (granted role, member, with admin option), each added when missing.
do $grants$
declare
  pair record;
begin
  for pair in
    select * from (values
      ('pgsodium_keyholder', 'pgsodium_keymaker', false), ('pgsodium_keyiduser', 'pgsodium_keymaker', false),
      ('pgsodium_keyiduser', 'pgsodium_keyholder', false),
      ('pgsodium_keyiduser', 'postgres', true), ('pgsodium_keyholder', 'postgres', true),
      ('pgsodium_keymaker', 'postgres', true), ('pgsodium_keyholder', 'service_role', false)
    ) as wanted(granted, member, admin)
  loop
    continue when not exists (select 1 from pg_catalog.pg_roles where rolname = pair.member);
    continue when (select rolsuper from pg_catalog.pg_roles where rolname = pair.member);
    continue when exists (
      select 1 from pg_catalog.pg_auth_members m
      where m.roleid = (select oid from pg_catalog.pg_roles where rolname = pair.granted)
        and m.member = (select oid from pg_catalog.pg_roles where rolname = pair.member));
    execute format('grant %I to %I%s', pair.granted, pair.member, case when pair.admin then ' with admin option' else '' end);
  end loop;
end
$grants$;

revoke all on schema @extschema@ from public;
grant usage on schema @extschema@ to public;

create schema if not exists pgsodium_masks;
revoke all on schema pgsodium_masks from public;
grant usage on schema pgsodium_masks to pgsodium_keyiduser;

create sequence if not exists @extschema@.key_key_id_seq;
grant all on sequence @extschema@.key_key_id_seq to postgres, pgsodium_keymaker;
