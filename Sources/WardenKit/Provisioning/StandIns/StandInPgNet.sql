-- pgwarden's local stand-in for pg_net (Supabase's asynchronous HTTP extension),
-- written from pg_net's documented API (https://supabase.com/docs/guides/database/extensions/pg_net):
-- net.http_get, net.http_post and net.http_delete return a request id and queue the
-- request in net.http_request_queue (id, method, url, headers, body,
-- timeout_milliseconds). Here nothing is ever sent: the queue keeps every request,
-- so a test can assert that a webhook was called; net._http_response stays empty, and
-- asking for a response raises an error saying so.

create schema if not exists net;

create table net.http_request_queue (
  id bigserial primary key,
  method text not null,
  url text not null,
  headers jsonb not null,
  body bytea,
  timeout_milliseconds integer not null);

create table net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out boolean,
  error_msg text,
  created timestamptz not null default now());

create function net.pgwarden_queue(method text, url text, params jsonb, headers jsonb, body bytea,
                                   timeout_milliseconds integer) returns bigint
  language sql volatile set search_path = ''
as $fn$
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values (method,
          url || coalesce((select case when url like '%?%' then '&' else '?' end
                                  || string_agg(pg_catalog.format('%s=%s', key, value), '&' order by key)
                           from pg_catalog.jsonb_each_text(coalesce(params, '{}')) where key is not null), ''),
          coalesce(headers, '{}'), body, coalesce(timeout_milliseconds, 5000))
  returning id
$fn$;

create function net.http_get(url text, params jsonb default '{}', headers jsonb default '{}',
                             timeout_milliseconds integer default 5000) returns bigint
  language sql volatile security definer set search_path = net
as $fn$ select net.pgwarden_queue('GET', url, params, headers, null, timeout_milliseconds) $fn$;

create function net.http_post(url text, body jsonb default '{}', params jsonb default '{}',
                              headers jsonb default '{"Content-Type": "application/json"}',
                              timeout_milliseconds integer default 5000) returns bigint
  language sql volatile security definer set search_path = net
as $fn$
  select net.pgwarden_queue('POST', url, params, headers, pg_catalog.convert_to(body::text, 'UTF8'), timeout_milliseconds)
$fn$;

create function net.http_delete(url text, params jsonb default '{}', headers jsonb default '{}',
                                timeout_milliseconds integer default 5000) returns bigint
  language sql volatile security definer set search_path = net
as $fn$ select net.pgwarden_queue('DELETE', url, params, headers, null, timeout_milliseconds) $fn$;

create function net._await_response(request_id bigint) returns boolean
  language plpgsql volatile
as $fn$
begin
  raise exception 'pg_net is a local stand-in on the pgwarden twin: request % was recorded in net.http_request_queue, not sent, so it has no response', request_id
    using errcode = 'feature_not_supported',
          hint = 'to test real HTTP calls, run against a server with pg_net (--database-url, e.g. Supabase''s own image)';
end
$fn$;

create function net.http_collect_response(request_id bigint, async boolean default true) returns record
  language plpgsql volatile
as $fn$
begin
  perform net._await_response(request_id);
  return null;
end
$fn$;

do $grants$
declare
  grantee text;
begin
  revoke all on function net.http_get(text, jsonb, jsonb, integer), net.http_post(text, jsonb, jsonb, jsonb, integer),
    net.http_delete(text, jsonb, jsonb, integer), net.pgwarden_queue(text, text, jsonb, jsonb, bytea, integer) from public;
  for grantee in
    select rolname from pg_catalog.pg_roles
    where rolname in ('supabase_functions_admin', 'postgres', 'anon', 'authenticated', 'service_role')
  loop
    execute format('grant usage on schema net to %I', grantee);
    execute format('grant execute on function net.http_get(text, jsonb, jsonb, integer), '
                   'net.http_post(text, jsonb, jsonb, jsonb, integer), net.http_delete(text, jsonb, jsonb, integer) to %I',
                   grantee);
  end loop;
  -- The stand-in's own helper is postgres's to call too (it does what http_get does):
  -- with no privilege on it, a project's `grant execute on all functions in schema net
  -- to postgres`, which gives WARNINGs on Supabase (postgres holds EXECUTE there, not
  -- its grant option), stopped with 42501 here.
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'postgres') then
    grant execute on function net.pgwarden_queue(text, text, jsonb, jsonb, bytea, integer) to postgres;
  end if;
  -- The tables and their sequence: every privilege to PUBLIC, as pg_net's own script
  -- grants since 0.12 (supabase/pg_net commit 8e34a8e, sql/pg_net.sql, unchanged to
  -- v0.20.5; Supabase ships 0.12 onwards: PG migrations/db/migrations/
  -- 20250220051611_pg_net_perms_fix.sql), so postgres may clean net._http_response.
  grant usage on schema net to public;
  grant all on all tables in schema net to public;
  grant all on all sequences in schema net to public;
end
$grants$;
