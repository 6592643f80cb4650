-- pgwarden's local stand-in for pgjwt (plain SQL upstream; Supabase offers it), written
-- from its documented API (https://github.com/michelp/pgjwt README; Supabase docs,
-- database/extensions/pgjwt): url_encode, url_decode, algorithm_sign, sign, verify,
-- for the HMAC algorithms HS256, HS384 and HS512 (the only ones pgjwt has). Needs
-- pgcrypto's hmac(); its schema is read once here, as PostgreSQL 15 has no
-- @extschema:pgcrypto@.

create function @extschema@.url_encode(data bytea) returns text
  language sql immutable strict
as $fn$ select pg_catalog.translate(pg_catalog.encode(data, 'base64'), E'+/=\n', '-_') $fn$;

create function @extschema@.url_decode(data text) returns bytea
  language sql immutable strict
as $fn$
  select pg_catalog.decode(padded || pg_catalog.repeat('=', (4 - pg_catalog.length(padded) % 4) % 4), 'base64')
  from (select pg_catalog.translate(data, '-_', '+/') as padded) as t
$fn$;

do $pgjwt$
declare
  crypto text := (select n.nspname from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace
                  where e.extname = 'pgcrypto');
  home text := '@extschema@';
begin
  execute pg_catalog.format($sql$
    create function %1$I.algorithm_sign(signables text, secret text, algorithm text) returns text
      language plpgsql immutable
    as $fn$
    declare
      digest text := case algorithm when 'HS256' then 'sha256' when 'HS384' then 'sha384'
                                    when 'HS512' then 'sha512' end;
    begin
      if digest is null then
        raise exception 'pgjwt (local stand-in on the pgwarden twin, like pgjwt itself) supports HS256, HS384 and HS512, not %%', algorithm
          using errcode = 'feature_not_supported';
      end if;
      return %1$I.url_encode(%2$I.hmac(signables, secret, digest));
    end
    $fn$ $sql$, home, crypto);
end
$pgjwt$;

create function @extschema@.sign(payload json, secret text, algorithm text default 'HS256') returns text
  language sql immutable
as $fn$
  with parts as (
    select @extschema@.url_encode(pg_catalog.convert_to('{"alg":"' || algorithm || '","typ":"JWT"}', 'utf8'))
           || '.' || @extschema@.url_encode(pg_catalog.convert_to(payload::text, 'utf8')) as signables)
  select signables || '.' || @extschema@.algorithm_sign(signables, secret, algorithm) from parts
$fn$;

create function @extschema@.try_cast_double(inp text) returns double precision
  language plpgsql immutable
as $fn$
begin
  return inp::double precision;
exception when others then
  return null;
end
$fn$;

create function @extschema@.verify(token text, secret text, algorithm text default 'HS256')
  returns table(header json, payload json, valid boolean)
  language sql stable
as $fn$
  select pg_catalog.convert_from(@extschema@.url_decode(r[1]), 'utf8')::json,
         pg_catalog.convert_from(@extschema@.url_decode(r[2]), 'utf8')::json,
         r[3] = @extschema@.algorithm_sign(r[1] || '.' || r[2], secret, algorithm)
           and coalesce(pg_catalog.to_timestamp(@extschema@.try_cast_double(
                 pg_catalog.convert_from(@extschema@.url_decode(r[2]), 'utf8')::json ->> 'exp')) > pg_catalog.now(), true)
           and coalesce(pg_catalog.to_timestamp(@extschema@.try_cast_double(
                 pg_catalog.convert_from(@extschema@.url_decode(r[2]), 'utf8')::json ->> 'nbf')) <= pg_catalog.now(), true)
  from pg_catalog.regexp_split_to_array(token, '\.') as r
$fn$;
