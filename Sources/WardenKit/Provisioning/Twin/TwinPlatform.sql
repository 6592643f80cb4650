-- pgwarden twin, step 8: what else a new project has. pg_stat_statements and pg_net
-- in `extensions` (when this server can provide them: on pgwarden's ephemeral server
-- pg_net is the local stand-in, see docs/supabase-twin.md, "Stand-ins"), the
-- `graphql` schema as far as plain PostgreSQL holds it, the `pgsodium` schema older
-- images made, and Database Webhooks' `supabase_functions` schema
-- (PG migrations/20240822021428_enable_webhooks_by_default.sql).

do $twin$
declare
  wanted text;
begin
  foreach wanted in array array['pg_stat_statements', 'pg_net'] loop
    continue when exists (select 1 from pg_catalog.pg_extension where extname = wanted)
      or not exists (select 1 from pg_catalog.pg_available_extensions where name = wanted);
    perform pg_temp.twin_create_extension(wanted);
  end loop;
end
$twin$;

-- pgsodium: projects made on images that installed pgsodium (PG migrations/
-- 20221207154255_create_pgsodium_and_vault.sql; newer images run create_vault.sql
-- without it) have a `pgsodium` schema owned by supabase_admin, holding the extension,
-- so their schema dumps' `create extension if not exists pgsodium with schema pgsodium`
-- applies there. The twin makes that schema, empty: the extension is pgwarden's
-- registration-only stand-in (StandIns/StandInPgsodium.sql), created when asked for.
do $twin$
begin
  if to_regnamespace('pgsodium') is null then
    create schema pgsodium authorization supabase_admin;
    perform pg_temp.twin_note('schema', 'pgsodium');
  end if;
end
$twin$;

-- graphql: pg_graphql's schema. Without the extension the schema is empty; the
-- entry point PostgREST calls, graphql_public.graphql(), answers with an error.
do $twin$
begin
  if to_regnamespace('graphql') is null then
    create schema graphql authorization supabase_admin;
    perform pg_temp.twin_note('schema', 'graphql');
  end if;
end
$twin$;
select pg_temp.twin_grant('schema', 'graphql', 'usage', grantee)
from unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee
where pg_temp.twin_is_new('graphql');

-- supabase_functions -------------------------------------------------------------------

do $twin$
begin
  if to_regnamespace('supabase_functions') is null then
    create schema supabase_functions authorization supabase_admin;
    perform pg_temp.twin_note('schema', 'supabase_functions');
  end if;
end
$twin$;

select pg_temp.twin_grant('schema', 'supabase_functions', 'usage', grantee)
from unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee
where pg_temp.twin_is_new('supabase_functions');
select pg_temp.twin_default_privileges('supabase_admin', 'supabase_functions', grantee)
from unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee
where pg_temp.twin_is_new('supabase_functions');
select pg_temp.twin_grant('schema', 'supabase_functions', 'usage, create', 'supabase_functions_admin')
where pg_temp.twin_is_new('supabase_functions');

do $twin$
begin
  if to_regclass('supabase_functions.migrations') is null then
    create table supabase_functions.migrations (
      version text primary key,
      inserted_at timestamptz not null default now());
    insert into supabase_functions.migrations (version) values ('initial'), ('20210809183423_update_grants');
    alter table supabase_functions.migrations owner to supabase_functions_admin;
    perform pg_temp.twin_note('table', 'supabase_functions.migrations');
  end if;
  if to_regclass('supabase_functions.hooks') is null then
    create table supabase_functions.hooks (
      id bigserial primary key,
      hook_table_id integer not null,
      hook_name text not null,
      created_at timestamptz not null default now(),
      request_id bigint);
    create index supabase_functions_hooks_request_id_idx on supabase_functions.hooks (request_id);
    create index supabase_functions_hooks_h_table_id_h_name_idx on supabase_functions.hooks (hook_table_id, hook_name);
    comment on table supabase_functions.hooks is 'Supabase Functions Hooks: Audit trail for triggered hooks.';
    alter table supabase_functions.hooks owner to supabase_functions_admin;
    perform pg_temp.twin_note('table', 'supabase_functions.hooks');
  end if;
  -- The trigger function the dashboard's webhooks attach: arguments url, method
  -- (GET or POST), headers (json), params (json), timeout in ms. A POST sends
  -- {type, table, schema, record, old_record} through pg_net; every call is logged
  -- in hooks with pg_net's request id. Our own text, same behaviour.
  if to_regprocedure('supabase_functions.http_request()') is null then
    create function supabase_functions.http_request() returns trigger
      language plpgsql security definer set search_path = supabase_functions
    as $fn$
    declare
      target_url text := tg_argv[0];
      verb text := tg_argv[1];
      request_headers jsonb := '{"Content-Type": "application/json"}';
      query_params jsonb := '{}';
      timeout_ms integer := 1000;
      id bigint;
    begin
      if target_url is null or target_url = 'null' then
        raise exception 'url argument is missing';
      end if;
      if verb is null or verb = 'null' then
        raise exception 'method argument is missing';
      end if;
      if tg_argv[2] is not null and tg_argv[2] <> 'null' then request_headers := tg_argv[2]::jsonb; end if;
      if tg_argv[3] is not null and tg_argv[3] <> 'null' then query_params := tg_argv[3]::jsonb; end if;
      if tg_argv[4] is not null and tg_argv[4] <> 'null' then timeout_ms := tg_argv[4]::integer; end if;
      if verb = 'GET' then
        id := net.http_get(target_url, query_params, request_headers, timeout_ms);
      elsif verb = 'POST' then
        id := net.http_post(target_url,
                            jsonb_build_object('old_record', old, 'record', new, 'type', tg_op,
                                               'table', tg_table_name, 'schema', tg_table_schema),
                            query_params, request_headers, timeout_ms);
      else
        raise exception 'method argument % is invalid', verb;
      end if;
      insert into supabase_functions.hooks (hook_table_id, hook_name, request_id) values (tg_relid, tg_name, id);
      return new;
    end
    $fn$;
    alter function supabase_functions.http_request() owner to supabase_functions_admin;
    revoke all on function supabase_functions.http_request() from public;
    perform pg_temp.twin_note('function', 'supabase_functions.http_request()');
  end if;
end
$twin$;

select pg_temp.twin_grant('table', relation, 'select, insert, update, delete, truncate, references, trigger', grantee)
from unnest(array['supabase_functions.migrations', 'supabase_functions.hooks']) as relation,
     unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee
where pg_temp.twin_is_new(relation);
select pg_temp.twin_grant('function', 'supabase_functions.http_request()', 'execute', grantee)
from unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee
where pg_temp.twin_is_new('supabase_functions.http_request()');
