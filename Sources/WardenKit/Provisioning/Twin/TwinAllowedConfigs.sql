-- pgwarden twin, step 6: the parameters Supabase lets postgres set although plain
-- PostgreSQL keeps them for superusers. On Supabase, supautils lets its privileged
-- role (postgres) set those of supautils.privileged_role_allowed_configs (supabase/postgres
-- ansible/files/postgresql_config/conf.d/supautils.conf at commit 6124db1):
-- auto_explain.*, log_lock_waits, log_min_duration_statement, log_min_messages,
-- log_parameter_max_length, log_replication_commands, log_statement, log_temp_files,
-- pg_net.batch_size, pg_net.ttl, pg_stat_statements.*, pgaudit.*, pgrst.*, plan_filter.*,
-- safeupdate.enabled, session_replication_role, track_io_timing, wal_compression.
-- Since PostgreSQL 15,
-- `grant set on parameter` gives one named parameter to a role; the twin grants
-- postgres:
--   * each listed name this server defines with context superuser
--     (session_replication_role, log_statement, track_io_timing, wal_compression,
--     pg_stat_statements.track, ...);
--     the other names belong to libraries the twin does not load, and anyone may set
--     such a placeholder in a session;
--   * pgrst.*: Supabase's docs tell users to run, as postgres, `alter role
--     authenticator set pgrst.db_pre_request to '...'` (and pgrst.db_aggregates_enabled,
--     ...) then `notify pgrst, 'reload config'`, and a non-superuser may not put a
--     placeholder in a role's settings without the grant. The names are PostgREST's
--     settings that its in-database configuration reads (PostgREST v12 docs,
--     references/configuration: "In-Database: Yes"), with `pgrst.` in front and dashes
--     as underscores.
-- Other parameters stay refused. Grants on parameters are cluster-wide; a grant that
-- exists is left alone.

do $twin$
declare
  parameter text;
begin
  if current_setting('server_version_num')::int < 150000 then
    return;
  end if;
  for parameter in
    select 'pgrst.' || name from unnest(array[
      'db_aggregates_enabled', 'db_anon_role', 'db_extra_search_path', 'db_hoisted_tx_settings', 'db_max_rows',
      'db_plan_enabled', 'db_pre_config', 'db_pre_request', 'db_prepared_statements', 'db_root_spec', 'db_schemas',
      'db_tx_end', 'jwt_aud', 'jwt_cache_max_lifetime', 'jwt_role_claim_key', 'jwt_secret', 'jwt_secret_is_base64',
      'log_level', 'openapi_mode', 'openapi_security_active', 'openapi_server_proxy_uri', 'raw_media_types',
      'server_cors_allowed_origins', 'server_timing_enabled', 'server_trace_header']) as name
    union all
    select s.name from pg_catalog.pg_settings s
    where s.context = 'superuser' and (s.name like 'auto_explain.%' or s.name like 'pg_stat_statements.%' or s.name = any (array[
      'log_lock_waits', 'log_min_duration_statement', 'log_min_messages', 'log_parameter_max_length',
      'log_replication_commands', 'log_statement', 'log_temp_files', 'pg_net.batch_size', 'pg_net.ttl',
      'safeupdate.enabled', 'session_replication_role', 'track_io_timing', 'wal_compression']))
  loop
    continue when exists (
      select 1 from pg_catalog.pg_parameter_acl a, pg_catalog.aclexplode(a.paracl) e
      where a.parname = parameter and e.privilege_type = 'SET'
        and e.grantee = (select oid from pg_catalog.pg_roles where rolname = 'postgres'));
    execute format('grant set on parameter %I to postgres', parameter);
    perform pg_temp.twin_note('parameter_grant', parameter);
  end loop;
end
$twin$;
