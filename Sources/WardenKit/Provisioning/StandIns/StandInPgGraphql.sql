-- pgwarden's local stand-in for pg_graphql (a Rust extension plain PostgreSQL cannot
-- load). It lets `create extension pg_graphql with schema graphql` succeed; its
-- resolver says it is a local stand-in instead of answering.
create function @extschema@.resolve(query text, variables jsonb default '{}', "operationName" text default null,
                                    extensions jsonb default null) returns jsonb
  language plpgsql volatile
as $fn$
begin
  raise exception 'pg_graphql is a local stand-in on the pgwarden twin: GraphQL queries are not resolved locally'
    using errcode = 'feature_not_supported',
          hint = 'to test GraphQL, run against a server with pg_graphql (--database-url, e.g. Supabase''s own image)';
end
$fn$;
