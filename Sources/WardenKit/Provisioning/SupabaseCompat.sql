-- pgwarden: Supabase compatibility layer for plain PostgreSQL (15 or later).
--
-- Makes an ordinary database answer access-control questions the way a Supabase
-- project does, so migrations written for Supabase (policies calling auth.uid(),
-- triggers on auth.users, grants to anon/authenticated) apply and can be proved:
--
--   * cluster-wide roles anon, authenticated, service_role (BYPASSRLS) and the
--     login role authenticator that may switch to each of them;
--   * the auth schema with a users table shaped like Supabase's auth.users;
--   * auth.uid(), auth.role(), auth.email(), auth.jwt(), reading the request's JWT
--     claims from the transaction-local setting request.jwt.claims (or the legacy
--     per-claim settings request.jwt.claim.*), exactly where PostgREST puts them;
--   * Supabase's default privileges in public: everything the migrating user creates
--     there is granted to anon, authenticated and service_role, so row level
--     security and explicit revokes are what actually guard the data.
--
-- Runs as one multi-statement string inside one transaction, as a superuser.
-- Idempotent: a second run changes nothing, and a run on another database of the
-- same cluster (roles already there, auth schema not yet) completes the setup.
-- pgwarden skips it entirely on a real Supabase database.

-- Roles ---------------------------------------------------------------------

do $compat$
declare
  spec record;
begin
  for spec in
    select * from (values
      ('anon',          'nologin noinherit'),
      ('authenticated', 'nologin noinherit'),
      ('service_role',  'nologin noinherit bypassrls'),
      ('authenticator', 'login noinherit')
    ) as wanted(role_name, options)
  loop
    if not exists (select 1 from pg_catalog.pg_roles where rolname = spec.role_name) then
      begin
        execute format('create role %I %s', spec.role_name, spec.options);
      exception when duplicate_object or unique_violation then
        null; -- created concurrently by another session: fine
      end;
    end if;
  end loop;
end
$compat$;

-- authenticator switches to the API roles; so may the user running migrations.
-- A grant is skipped when the membership already exists, or when it would be
-- circular (the grantee is the role itself, or already a member of it).
do $compat$
declare
  pair record;
begin
  for pair in
    select r.role_name, g.grantee
    from (values ('anon'), ('authenticated'), ('service_role')) as r(role_name)
    cross join (values ('authenticator'), (current_user::text)) as g(grantee)
  loop
    continue when pair.role_name = pair.grantee;
    continue when exists (
      with recursive members(oid) as (
        select oid from pg_catalog.pg_roles where rolname = pair.grantee
        union
        select m.roleid
        from pg_catalog.pg_auth_members m
        join members on m.member = members.oid
      )
      select 1 from members join pg_catalog.pg_roles r on r.oid = members.oid
      where r.rolname = pair.role_name
    );
    continue when exists (
      with recursive members(oid) as (
        select oid from pg_catalog.pg_roles where rolname = pair.role_name
        union
        select m.roleid
        from pg_catalog.pg_auth_members m
        join members on m.member = members.oid
      )
      select 1 from members join pg_catalog.pg_roles r on r.oid = members.oid
      where r.rolname = pair.grantee
    );
    execute format('grant %I to %I', pair.role_name, pair.grantee);
  end loop;
end
$compat$;

-- auth schema ----------------------------------------------------------------

create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

-- Shaped after Supabase's auth.users (nullability as there). Token columns default
-- to '' because Supabase's auth server cannot read NULL in them.
create table if not exists auth.users (
  instance_id                 uuid,
  id                          uuid not null default gen_random_uuid(),
  aud                         varchar(255),
  role                        varchar(255),
  email                       varchar(255),
  encrypted_password          varchar(255),
  email_confirmed_at          timestamptz,
  invited_at                  timestamptz,
  confirmation_token          varchar(255) default '',
  confirmation_sent_at        timestamptz,
  recovery_token              varchar(255) default '',
  recovery_sent_at            timestamptz,
  email_change_token_new      varchar(255) default '',
  email_change                varchar(255) default '',
  email_change_sent_at        timestamptz,
  last_sign_in_at             timestamptz,
  raw_app_meta_data           jsonb,
  raw_user_meta_data          jsonb,
  is_super_admin              boolean,
  created_at                  timestamptz default now(),
  updated_at                  timestamptz default now(),
  phone                       text default null,
  phone_confirmed_at          timestamptz,
  phone_change                text default '',
  phone_change_token          varchar(255) default '',
  phone_change_sent_at        timestamptz,
  confirmed_at                timestamptz
    generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current  varchar(255) default '',
  email_change_confirm_status smallint default 0,
  banned_until                timestamptz,
  reauthentication_token      varchar(255) default '',
  reauthentication_sent_at    timestamptz,
  is_sso_user                 boolean not null default false,
  deleted_at                  timestamptz,
  is_anonymous                boolean not null default false,
  constraint users_pkey primary key (id),
  constraint users_phone_key unique (phone),
  constraint users_email_change_confirm_status_check
    check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2)
);

create unique index if not exists users_email_partial_key
  on auth.users (email) where (is_sso_user = false);
create index if not exists users_instance_id_idx on auth.users (instance_id);
create index if not exists users_is_anonymous_idx on auth.users (is_anonymous);

comment on table auth.users is
  'pgwarden compatibility stand-in for Supabase''s auth.users (sign-up accounts).';

-- Only service_role (and the owner) may touch accounts directly.
revoke all on table auth.users from anon, authenticated;
grant all on table auth.users to service_role;

-- Request identity ----------------------------------------------------------
-- PostgREST sets request.jwt.claims (JSON text) per transaction; older versions
-- set one setting per claim (request.jwt.claim.sub, ...), which take precedence.

create or replace function auth.uid() returns uuid
  language sql stable
as $fn$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$fn$;

create or replace function auth.role() returns text
  language sql stable
as $fn$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$fn$;

create or replace function auth.email() returns text
  language sql stable
as $fn$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$fn$;

create or replace function auth.jwt() returns jsonb
  language sql stable
as $fn$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$fn$;

comment on function auth.uid() is 'The signed-in user''s id (JWT claim sub), or null.';
comment on function auth.role() is 'The request''s role (JWT claim role), or null.';
comment on function auth.email() is 'The signed-in user''s email (JWT claim email), or null.';
comment on function auth.jwt() is 'All JWT claims of the request, or null.';

grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt()
  to anon, authenticated, service_role;

-- Supabase's default privileges in public -------------------------------------
-- Applies to objects the current (migrating) user creates from now on.

grant usage on schema public to anon, authenticated, service_role;

alter default privileges in schema public
  grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public
  grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public
  grant execute on functions to anon, authenticated, service_role;
