-- pgwarden's local stand-in for the http extension (pgsql-http, synchronous HTTP from
-- SQL; Supabase offers it), written from its documented API
-- (https://github.com/pramsey/pgsql-http README): the types http_method, http_header,
-- http_request, http_response, and http(), http_get, http_post, http_put,
-- http_patch, http_delete, http_head, http_header(), urlencode().
-- Every request function records the request in http_request_log (method, url,
-- headers, body) instead of sending it, so a test can assert the call was made. The
-- answer is one the local twin cannot know: the response has every field null (SQL's
-- "unknown", never an invented status or body), with a warning saying so.

create domain @extschema@.http_method as text;
create type @extschema@.http_header as (field character varying, value character varying);
create type @extschema@.http_request as (method @extschema@.http_method, uri character varying,
                                         headers @extschema@.http_header[], content_type character varying,
                                         content character varying);
create type @extschema@.http_response as (status integer, content_type character varying,
                                          headers @extschema@.http_header[], content character varying);

create table @extschema@.http_request_log (
  id bigserial primary key,
  method text not null,
  url text not null,
  headers jsonb not null default '{}',
  body text,
  created_at timestamptz not null default now());

create function @extschema@.http_header(field character varying, value character varying)
  returns @extschema@.http_header language sql immutable
as $fn$ select row(field, value)::@extschema@.http_header $fn$;

create function @extschema@.urlencode(string character varying) returns text
  language sql immutable strict
as $fn$
  select pg_catalog.string_agg(case when c ~ '^[A-Za-z0-9._~-]$' then c
                                    else (select pg_catalog.string_agg('%' || pg_catalog.upper(pg_catalog.encode(pg_catalog.set_byte('\x00'::bytea, 0, pg_catalog.get_byte(b, i)), 'hex')), '')
                                          from (select pg_catalog.convert_to(c, 'utf8') as b) as x,
                                               pg_catalog.generate_series(0, pg_catalog.length(pg_catalog.convert_to(c, 'utf8')) - 1) as i) end,
                               '' order by n)
  from pg_catalog.regexp_split_to_table(string, '') with ordinality as t(c, n)
$fn$;

create function @extschema@.urlencode(data jsonb) returns text
  language sql immutable strict
as $fn$
  select pg_catalog.string_agg(@extschema@.urlencode(key) || '=' || @extschema@.urlencode(value), '&' order by key)
  from pg_catalog.jsonb_each_text(data)
$fn$;

create function @extschema@.http(request @extschema@.http_request) returns @extschema@.http_response
  language plpgsql volatile security definer set search_path = ''
as $fn$
begin
  -- pgsql-http refuses a request without a URI or a method (http.c: "http_request.uri
  -- is NULL", an elog ERROR, XX000), before anything is sent.
  if request.uri is null then
    raise exception 'http_request.uri is NULL' using errcode = 'XX000',
      hint = 'on the pgwarden twin, a URL read from Vault or from a setting the project makes outside its migrations is NULL unless the plan''s setup gives it';
  end if;
  if request.method is null then
    raise exception 'http_request.method is NULL' using errcode = 'XX000';
  end if;
  insert into @extschema@.http_request_log (method, url, headers, body)
  values (pg_catalog.upper(request.method), request.uri,
          coalesce((select pg_catalog.jsonb_object_agg(h.field, h.value) from pg_catalog.unnest(request.headers) h), '{}')
            || case when request.content_type is null then '{}'::jsonb
                    else pg_catalog.jsonb_build_object('Content-Type', request.content_type) end,
          request.content);
  raise warning 'http is a local stand-in on the pgwarden twin: the % request to % was recorded in http_request_log, not sent; its response is unknown (every field null)',
    pg_catalog.upper(request.method), request.uri
    using hint = 'to make real HTTP calls, run against a server with the http extension (--database-url, e.g. Supabase''s own image, or PGWARDEN_PG_BINDIR)';
  return row(null, null, null, null)::@extschema@.http_response;
end
$fn$;

create function @extschema@.http_get(uri character varying) returns @extschema@.http_response
  language sql volatile as $fn$ select @extschema@.http(row('GET', uri, null, null, null)) $fn$;
create function @extschema@.http_get(uri character varying, data jsonb) returns @extschema@.http_response
  language sql volatile
as $fn$ select @extschema@.http(row('GET', uri || '?' || @extschema@.urlencode(data), null, null, null)) $fn$;
create function @extschema@.http_post(uri character varying, content character varying, content_type character varying)
  returns @extschema@.http_response language sql volatile
as $fn$ select @extschema@.http(row('POST', uri, null, content_type, content)) $fn$;
create function @extschema@.http_post(uri character varying, data jsonb) returns @extschema@.http_response
  language sql volatile
as $fn$ select @extschema@.http(row('POST', uri, null, 'application/x-www-form-urlencoded', @extschema@.urlencode(data))) $fn$;
create function @extschema@.http_put(uri character varying, content character varying, content_type character varying)
  returns @extschema@.http_response language sql volatile
as $fn$ select @extschema@.http(row('PUT', uri, null, content_type, content)) $fn$;
create function @extschema@.http_patch(uri character varying, content character varying, content_type character varying)
  returns @extschema@.http_response language sql volatile
as $fn$ select @extschema@.http(row('PATCH', uri, null, content_type, content)) $fn$;
create function @extschema@.http_delete(uri character varying) returns @extschema@.http_response
  language sql volatile as $fn$ select @extschema@.http(row('DELETE', uri, null, null, null)) $fn$;
create function @extschema@.http_head(uri character varying) returns @extschema@.http_response
  language sql volatile as $fn$ select @extschema@.http(row('HEAD', uri, null, null, null)) $fn$;

do $grants$
begin
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'postgres') then
    grant select on @extschema@.http_request_log to postgres;
  end if;
end
$grants$;
