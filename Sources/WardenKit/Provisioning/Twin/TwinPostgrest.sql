-- pgwarden twin, step 6: PostgREST's in-database configuration. Supabase's docs tell
-- users to run, as postgres, `alter role authenticator set pgrst.db_pre_request to
-- '...'` (and pgrst.db_aggregates_enabled, ...) then `notify pgrst, 'reload config'`.
-- On plain PostgreSQL a non-superuser may not set an unregistered (placeholder)
-- parameter in a role's settings; since PostgreSQL 15, `grant set on parameter` lets
-- it, one named parameter at a time. The names are PostgREST's settings that its
-- in-database configuration reads (PostgREST v12 docs, references/configuration:
-- "In-Database: Yes"), with `pgrst.` in front and dashes as underscores. Grants on
-- parameters are cluster-wide; a grant that exists is left alone.

do $twin$
declare
  parameter text;
begin
  if current_setting('server_version_num')::int < 150000 then
    return;
  end if;
  foreach parameter in array array[
    'db_aggregates_enabled', 'db_anon_role', 'db_extra_search_path', 'db_hoisted_tx_settings', 'db_max_rows',
    'db_plan_enabled', 'db_pre_config', 'db_pre_request', 'db_prepared_statements', 'db_root_spec', 'db_schemas',
    'db_tx_end', 'jwt_aud', 'jwt_cache_max_lifetime', 'jwt_role_claim_key', 'jwt_secret', 'jwt_secret_is_base64',
    'log_level', 'openapi_mode', 'openapi_security_active', 'openapi_server_proxy_uri', 'raw_media_types',
    'server_cors_allowed_origins', 'server_timing_enabled', 'server_trace_header'] loop
    continue when exists (
      select 1 from pg_catalog.pg_parameter_acl a, pg_catalog.aclexplode(a.paracl) e
      where a.parname = 'pgrst.' || parameter and e.privilege_type = 'SET'
        and e.grantee = (select oid from pg_catalog.pg_roles where rolname = 'postgres'));
    execute format('grant set on parameter %I to postgres', 'pgrst.' || parameter);
    perform pg_temp.twin_note('parameter_grant', 'pgrst.' || parameter);
  end loop;
end
$twin$;
