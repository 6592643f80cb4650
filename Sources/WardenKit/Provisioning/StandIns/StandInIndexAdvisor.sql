-- pgwarden's local stand-in for index_advisor (Supabase's index suggestions, a
-- privileged extension on top of hypopg; `supabase db dump` of a project that enabled
-- it carries `create extension if not exists "index_advisor" with schema "extensions"`).
-- Its call, as supabase/index_advisor declares it since errors are returned, not
-- raised (commit 4421c56; supabase/postgres nix/tests/sql/index_advisor.sql calls it):
-- index_advisor(query text) returns startup and total costs before and after, the
-- suggested CREATE INDEX statements and errors. This one suggests nothing and says so
-- in `errors`, so a migration or a test that calls it runs.
create function @extschema@.index_advisor(query text)
  returns table (startup_cost_before jsonb, startup_cost_after jsonb, total_cost_before jsonb,
                 total_cost_after jsonb, index_statements text[], errors text[])
  language sql volatile
as $fn$
  select null::jsonb, null::jsonb, null::jsonb, null::jsonb, '{}'::text[],
         array['index_advisor is a local stand-in on the pgwarden twin: no indexes are suggested locally']
$fn$;
