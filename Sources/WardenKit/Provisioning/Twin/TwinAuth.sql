-- pgwarden twin, step 3: the auth schema as Supabase's auth server (v2.196.0) leaves
-- it: tables owned by supabase_auth_admin with row-level security on and no policy,
-- granted to postgres and dashboard_user only (never to anon, authenticated or
-- service_role); auth.uid(), role(), email(), jwt() readable by everyone.
-- Facts and sources: docs/supabase-twin.md, "auth". Tables the auth server added
-- for OAuth and WebAuthn after 2025 are left out.

do $twin$
begin
  if to_regnamespace('auth') is null then
    create schema auth authorization supabase_admin;
    perform pg_temp.twin_note('schema', 'auth');
  end if;
end
$twin$;

select pg_temp.twin_grant('schema', 'auth', 'usage', grantee)
from unnest(array['anon', 'authenticated', 'service_role', 'postgres']) as grantee
where pg_temp.twin_is_new('auth');
select pg_temp.twin_grant('schema', 'auth', 'usage, create', grantee)
from unnest(array['supabase_auth_admin', 'dashboard_user']) as grantee
where pg_temp.twin_is_new('auth');
select pg_temp.twin_default_privileges('supabase_auth_admin', 'auth', grantee)
from unnest(array['postgres', 'dashboard_user']) as grantee;

-- Enum types ------------------------------------------------------------------------

do $twin$
declare
  spec record;
begin
  for spec in
    select * from (values
      ('aal_level',             array['aal1', 'aal2', 'aal3']),
      ('factor_type',           array['totp', 'webauthn', 'phone']),
      ('factor_status',         array['unverified', 'verified']),
      ('code_challenge_method', array['s256', 'plain']),
      ('one_time_token_type',   array['confirmation_token', 'reauthentication_token', 'recovery_token',
                                      'email_change_token_new', 'email_change_token_current',
                                      'phone_change_token'])
    ) as wanted(type_name, labels)
  loop
    continue when to_regtype('auth.' || spec.type_name) is not null;
    execute format('create type auth.%I as enum (%s)', spec.type_name,
                   (select string_agg(quote_literal(l), ', ') from unnest(spec.labels) l));
    execute format('alter type auth.%I owner to supabase_auth_admin', spec.type_name);
    perform pg_temp.twin_note('type', 'auth.' || spec.type_name);
  end loop;
end
$twin$;
