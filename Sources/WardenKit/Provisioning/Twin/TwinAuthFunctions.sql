-- pgwarden twin, step 3c: auth.uid(), auth.role(), auth.email(), auth.jwt(), as the
-- auth server defines them. Facts and sources: docs/supabase-twin.md, "auth".

-- Request identity ----------------------------------------------------------------------
-- PostgREST puts the request's JWT claims in the transaction-local setting
-- request.jwt.claims (JSON); older versions set one setting per claim
-- (request.jwt.claim.sub, ...), which come first, as in the auth server's functions.

do $twin$
begin
  if to_regprocedure('auth.uid()') is null then
    create function auth.uid() returns uuid
      language sql stable
    as $fn$
      select coalesce(
        nullif(current_setting('request.jwt.claim.sub', true), ''),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'))::uuid
    $fn$;
    comment on function auth.uid() is 'The signed-in user''s id (claim sub), or null.';
    perform pg_temp.twin_note('function', 'auth.uid()');
  end if;
  if to_regprocedure('auth.role()') is null then
    create function auth.role() returns text
      language sql stable
    as $fn$
      select coalesce(
        nullif(current_setting('request.jwt.claim.role', true), ''),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'))::text
    $fn$;
    comment on function auth.role() is 'The request''s role (claim role), or null.';
    perform pg_temp.twin_note('function', 'auth.role()');
  end if;
  if to_regprocedure('auth.email()') is null then
    create function auth.email() returns text
      language sql stable
    as $fn$
      select coalesce(
        nullif(current_setting('request.jwt.claim.email', true), ''),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email'))::text
    $fn$;
    comment on function auth.email() is 'The signed-in user''s email (claim email), or null.';
    perform pg_temp.twin_note('function', 'auth.email()');
  end if;
  if to_regprocedure('auth.jwt()') is null then
    create function auth.jwt() returns jsonb
      language sql stable
    as $fn$
      select coalesce(
        nullif(current_setting('request.jwt.claim', true), ''),
        nullif(current_setting('request.jwt.claims', true), ''))::jsonb
    $fn$;
    perform pg_temp.twin_note('function', 'auth.jwt()');
  end if;
end
$twin$;

-- Created functions: owned by supabase_auth_admin, executable by everyone (PUBLIC).
do $twin$
declare
  created record;
begin
  for created in select name from pg_temp.twin_created where kind = 'function' and name like 'auth.%' loop
    execute format('alter function %s owner to supabase_auth_admin', created.name);
    perform pg_temp.twin_grant('function', created.name, 'execute', 'dashboard_user');
    if created.name = 'auth.jwt()' then
      perform pg_temp.twin_grant('function', created.name, 'execute', 'postgres');
    end if;
  end loop;
end
$twin$;
