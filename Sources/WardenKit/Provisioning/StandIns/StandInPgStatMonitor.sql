-- pgwarden's local stand-in for pg_stat_monitor (Percona's query statistics, a C
-- extension plain PostgreSQL cannot load; Supabase's image ships it, and a schema dump
-- of a hosted project carries `create extension if not exists "pg_stat_monitor" with
-- schema "extensions"`). A registration: the statement applies, and the one function
-- a migration might call says no statistics are collected locally.
create function @extschema@.pg_stat_monitor_reset() returns void
  language plpgsql
as $fn$
begin
  raise exception 'pg_stat_monitor is a local stand-in on the pgwarden twin: no query statistics are collected locally'
    using errcode = 'feature_not_supported';
end
$fn$;
