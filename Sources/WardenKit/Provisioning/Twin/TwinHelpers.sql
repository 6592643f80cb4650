-- pgwarden twin, step 0: helpers for the steps that follow (session-local, dropped
-- at commit). Every step adds only what is missing: an object it creates gets its
-- owner, row-level security and grants; an object that already exists is left as
-- it is. Role settings, memberships, schema grants and default privileges are added
-- one by one when missing. Each creation is noted in twin_created, which pgwarden
-- reads to say what bootstrap did.

create temporary table if not exists twin_created (kind text not null, name text not null) on commit drop;

create or replace function pg_temp.twin_note(kind text, name text) returns void
  language sql as $fn$ insert into pg_temp.twin_created values ($1, $2) $fn$;

-- Creates extension `wanted` in `extensions` and notes it: as postgres where it may
-- (trusted on pgwarden's server, as supautils lets it on Supabase), so postgres may
-- drop it again; else as the bootstrapping superuser.
create or replace function pg_temp.twin_create_extension(wanted text) returns void
  language plpgsql as $fn$
begin
  begin
    set local role postgres;
    execute format('create extension %I with schema extensions', wanted);
    reset role;
  exception when insufficient_privilege then
    execute format('create extension %I with schema extensions', wanted);
  end;
  perform pg_temp.twin_note('extension', wanted);
end
$fn$;

-- Makes event trigger `name` fire in every session_replication_role (ENABLE ALWAYS),
-- noting it when it did not yet.
create or replace function pg_temp.twin_enable_always(name text) returns void
  language plpgsql as $fn$
begin
  if exists (select 1 from pg_catalog.pg_event_trigger where evtname = name and evtenabled <> 'A') then
    execute format('alter event trigger %I enable always', name);
    perform pg_temp.twin_note('event_trigger', name);
  end if;
end
$fn$;

-- Was this object created by this bootstrap run?
create or replace function pg_temp.twin_is_new(name text) returns boolean
  language sql as $fn$ select exists (select 1 from pg_temp.twin_created c where c.name = $1) $fn$;

-- Does the ACL hold an explicit entry giving `privilege` to `grantee`?
create or replace function pg_temp.twin_acl_has(acl aclitem[], grantee text, privilege text) returns boolean
  language sql as $fn$
    select case when coalesce(cardinality($1), 0) = 0 then false else exists (
      select 1 from pg_catalog.aclexplode($1) a
      where a.grantee = coalesce((select r.oid from pg_catalog.pg_roles r where r.rolname = $2), 0)
        and a.privilege_type = upper($3)) end
  $fn$;

-- Grants each privilege of `privileges` (comma-separated) on an object to `grantee`
-- unless the object's ACL already names it. kind: database, schema, table, sequence, function.
-- `object` is an identifier (database, schema) or a qualified name we wrote
-- ourselves (table, function signature).
create or replace function pg_temp.twin_grant(kind text, object text, privileges text, grantee text,
                                              grantable boolean default false) returns void
  language plpgsql as $fn$
declare
  acl aclitem[];
  privilege text;
  missing text[] := '{}';
  target text;
begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = grantee) then
    return;
  end if;
  case kind
    when 'database' then
      select datacl into acl from pg_catalog.pg_database where datname = object;
      target := 'database ' || quote_ident(object);
    when 'schema' then
      select nspacl into acl from pg_catalog.pg_namespace where nspname = object;
      target := 'schema ' || quote_ident(object);
    when 'table' then
      select relacl into acl from pg_catalog.pg_class where oid = object::regclass;
      target := 'table ' || object;
    when 'sequence' then
      select relacl into acl from pg_catalog.pg_class where oid = object::regclass;
      target := 'sequence ' || object;
    when 'function' then
      select proacl into acl from pg_catalog.pg_proc where oid = object::regprocedure;
      target := 'function ' || object;
  end case;
  foreach privilege in array string_to_array(privileges, ',') loop
    privilege := btrim(privilege);
    continue when pg_temp.twin_acl_has(acl, grantee, privilege);
    missing := missing || privilege;
  end loop;
  if cardinality(missing) > 0 then
    execute format('grant %s on %s to %I%s', array_to_string(missing, ', '), target, grantee,
                   case when grantable then ' with grant option' else '' end);
  end if;
end
$fn$;

-- Default privileges: for objects `owner` creates in `schema_name`, grant `grantee`
-- all on tables and sequences and execute on functions, unless already set.
create or replace function pg_temp.twin_default_privileges(owner text, schema_name text, grantee text,
                                                           grantable boolean default false) returns void
  language plpgsql as $fn$
declare
  kind record;
begin
  if not exists (select 1 from pg_catalog.pg_roles where rolname = owner)
     or not exists (select 1 from pg_catalog.pg_roles where rolname = grantee)
     or to_regnamespace(schema_name) is null then
    return;
  end if;
  for kind in select * from (values ('r', 'tables', 'SELECT'), ('S', 'sequences', 'USAGE'),
                                    ('f', 'functions', 'EXECUTE')) as k(code, plural, probe) loop
    continue when exists (
      select 1 from pg_catalog.pg_default_acl d
      where d.defaclrole = (select oid from pg_catalog.pg_roles where rolname = owner)
        and d.defaclnamespace = to_regnamespace(schema_name)
        and d.defaclobjtype = kind.code
        and pg_temp.twin_acl_has(d.defaclacl, grantee, kind.probe));
    execute format('alter default privileges for role %I in schema %I grant %s on %s to %I%s',
                   owner, schema_name, case when kind.code = 'f' then 'execute' else 'all' end,
                   kind.plural, grantee, case when grantable then ' with grant option' else '' end);
  end loop;
end
$fn$;
