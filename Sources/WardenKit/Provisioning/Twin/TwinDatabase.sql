-- pgwarden twin, step 2: this database as Supabase sets it up: owned by postgres,
-- public's grants and default privileges, the extensions schema with uuid-ossp and
-- pgcrypto, the supabase_realtime publication, graphql_public and realtime.
-- Facts and sources: docs/supabase-twin.md, "Database and schemas", "Default privileges".

-- On Supabase the database (and so public, owned by pg_database_owner) belongs to
-- postgres. A database still owned by a superuser (as one just created on pgwarden's
-- server is) is handed to postgres; any other owner is kept.
do $twin$
declare
  owner_is_superuser boolean;
begin
  select r.rolsuper into owner_is_superuser
  from pg_catalog.pg_database d join pg_catalog.pg_roles r on r.oid = d.datdba
  where d.datname = current_database() and r.rolname <> 'postgres';
  if owner_is_superuser and not (select rolsuper from pg_catalog.pg_roles where rolname = 'postgres') then
    execute format('alter database %I owner to postgres', current_database());
    perform pg_temp.twin_note('owner', 'database ' || current_database() || ' to postgres');
  end if;
end
$twin$;

select pg_temp.twin_grant('database', current_database(), 'create, temporary, connect', grantee)
from unnest(array['postgres', 'dashboard_user']) as grantee;
select pg_temp.twin_grant('database', current_database(), 'create', 'supabase_auth_admin');

-- public ---------------------------------------------------------------------------

select pg_temp.twin_grant('schema', 'public', 'usage', grantee)
from unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee;

-- What postgres (migrations) and supabase_admin create in public is granted to the
-- API roles: row-level security and explicit revokes are what guard the data.
select pg_temp.twin_default_privileges(owner, 'public', grantee)
from unnest(array['postgres', 'supabase_admin']) as owner,
     unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee;

-- extensions -----------------------------------------------------------------------

do $twin$
begin
  if to_regnamespace('extensions') is null then
    create schema extensions authorization postgres;
    perform pg_temp.twin_note('schema', 'extensions');
  end if;
end
$twin$;

select pg_temp.twin_grant('schema', 'extensions', 'usage', grantee)
from unnest(array['anon', 'authenticated', 'service_role']) as grantee;
select pg_temp.twin_grant('schema', 'extensions', 'usage, create', 'dashboard_user');
select pg_temp.twin_default_privileges('supabase_admin', 'extensions', 'postgres', true);

-- uuid-ossp and pgcrypto, installed by postgres as on Supabase (both are trusted
-- extensions, so postgres may create them with CREATE on the database); when it
-- may not, by the bootstrapping superuser. An extension already installed, in
-- whatever schema, is left where it is.
do $twin$
declare
  wanted text;
begin
  foreach wanted in array array['uuid-ossp', 'pgcrypto'] loop
    continue when exists (select 1 from pg_catalog.pg_extension where extname = wanted);
    perform pg_temp.twin_create_extension(wanted);
  end loop;
end
$twin$;

-- realtime ---------------------------------------------------------------------------

do $twin$
begin
  if not exists (select 1 from pg_catalog.pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
    alter publication supabase_realtime owner to postgres;
    perform pg_temp.twin_note('publication', 'supabase_realtime');
  end if;
  if to_regnamespace('realtime') is null then
    create schema realtime authorization supabase_admin;
    -- With grant option since PG migrations/20260506172403_grant_realtime_schema_to_postgres_with_grant_option.sql.
    grant usage on schema realtime to postgres with grant option;
    perform pg_temp.twin_note('schema', 'realtime');
  end if;
end
$twin$;

select pg_temp.twin_default_privileges('supabase_admin', 'realtime', grantee)
from unnest(array['postgres', 'dashboard_user']) as grantee;

-- graphql_public ---------------------------------------------------------------------
-- Without the pg_graphql extension, Supabase keeps a placeholder entry point that
-- answers with an error; so does the twin.

do $twin$
begin
  if to_regnamespace('graphql_public') is null then
    create schema graphql_public authorization supabase_admin;
    perform pg_temp.twin_note('schema', 'graphql_public');
  end if;
  if to_regprocedure('graphql_public.graphql(text, text, jsonb, jsonb)') is null then
    create function graphql_public.graphql(
      "operationName" text default null, query text default null,
      variables jsonb default null, extensions jsonb default null)
      returns jsonb
      language sql stable
    as $fn$
      select jsonb_build_object('errors', jsonb_build_array(
        jsonb_build_object('message', 'pg_graphql extension is not enabled.')))
    $fn$;
    alter function graphql_public.graphql(text, text, jsonb, jsonb) owner to supabase_admin;
    perform pg_temp.twin_note('function', 'graphql_public.graphql');
  end if;
end
$twin$;

select pg_temp.twin_grant('schema', 'graphql_public', 'usage', grantee)
from unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee
where pg_temp.twin_is_new('graphql_public');
select pg_temp.twin_default_privileges('supabase_admin', 'graphql_public', grantee)
from unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee;
