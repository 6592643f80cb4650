-- pgwarden twin, step 3b: the auth server's tables (v2.196.0), each created only
-- when missing, then owned by supabase_auth_admin with row-level security on and
-- granted as on Supabase. Facts and sources: docs/supabase-twin.md, "auth". Every
-- unique index is mirrored (they decide what may be inserted); indexes that only
-- speed up the auth server's own queries are left out.

-- Tables ------------------------------------------------------------------------------
-- Each is created only when missing; columns, defaults and constraints as the auth
-- server's migrations leave them (auth.users.id has no default; the token columns
-- are nullable without default).

do $twin$
begin
  if to_regclass('auth.users') is null then
    create table auth.users (
      instance_id                 uuid,
      id                          uuid not null,
      aud                         varchar(255),
      role                        varchar(255),
      email                       varchar(255),
      encrypted_password          varchar(255),
      email_confirmed_at          timestamptz,
      invited_at                  timestamptz,
      confirmation_token          varchar(255),
      confirmation_sent_at        timestamptz,
      recovery_token              varchar(255),
      recovery_sent_at            timestamptz,
      email_change_token_new      varchar(255),
      email_change                varchar(255),
      email_change_sent_at        timestamptz,
      last_sign_in_at             timestamptz,
      raw_app_meta_data           jsonb,
      raw_user_meta_data          jsonb,
      is_super_admin              boolean,
      created_at                  timestamptz,
      updated_at                  timestamptz,
      phone                       text default null::varchar,
      phone_confirmed_at          timestamptz,
      phone_change                text default ''::varchar,
      phone_change_token          varchar(255) default '',
      phone_change_sent_at        timestamptz,
      confirmed_at                timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
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
    create unique index users_email_partial_key on auth.users (email) where is_sso_user = false;
    create index users_instance_id_idx on auth.users (instance_id);
    create index users_instance_id_email_idx on auth.users (instance_id, lower(email::text));
    create index users_is_anonymous_idx on auth.users (is_anonymous);
    -- Tokens are unique unless empty or all digits (one-time codes).
    create unique index confirmation_token_idx on auth.users (confirmation_token)
      where confirmation_token::text !~ '^[0-9 ]*$';
    create unique index recovery_token_idx on auth.users (recovery_token)
      where recovery_token::text !~ '^[0-9 ]*$';
    create unique index email_change_token_new_idx on auth.users (email_change_token_new)
      where email_change_token_new::text !~ '^[0-9 ]*$';
    create unique index email_change_token_current_idx on auth.users (email_change_token_current)
      where email_change_token_current::text !~ '^[0-9 ]*$';
    create unique index reauthentication_token_idx on auth.users (reauthentication_token)
      where reauthentication_token::text !~ '^[0-9 ]*$';
    comment on table auth.users is 'pgwarden twin of Supabase''s auth.users: one row per account.';
    perform pg_temp.twin_note('table', 'auth.users');
  end if;

  if to_regclass('auth.identities') is null then
    create table auth.identities (
      provider_id     text not null,
      user_id         uuid not null references auth.users (id) on delete cascade,
      identity_data   jsonb not null,
      provider        text not null,
      last_sign_in_at timestamptz,
      created_at      timestamptz,
      updated_at      timestamptz,
      email           text generated always as (lower(identity_data ->> 'email')) stored,
      id              uuid not null default gen_random_uuid() primary key,
      constraint identities_provider_id_provider_unique unique (provider_id, provider)
    );
    create index identities_user_id_idx on auth.identities (user_id);
    create index identities_email_idx on auth.identities (email text_pattern_ops);
    perform pg_temp.twin_note('table', 'auth.identities');
  end if;

  if to_regclass('auth.sessions') is null then
    create table auth.sessions (
      id                     uuid not null primary key,
      user_id                uuid not null references auth.users (id) on delete cascade,
      created_at             timestamptz,
      updated_at             timestamptz,
      factor_id              uuid,
      aal                    auth.aal_level,
      not_after              timestamptz,
      refreshed_at           timestamp,
      user_agent             text,
      ip                     inet,
      tag                    text,
      oauth_client_id        uuid,
      refresh_token_hmac_key text,
      refresh_token_counter  bigint,
      scopes                 text,
      constraint sessions_scopes_length check (char_length(scopes) <= 4096)
    );
    create index sessions_user_id_idx on auth.sessions (user_id);
    create index user_id_created_at_idx on auth.sessions (user_id, created_at);
    create index sessions_not_after_idx on auth.sessions (not_after desc);
    perform pg_temp.twin_note('table', 'auth.sessions');
  end if;

  if to_regclass('auth.refresh_tokens') is null then
    create table auth.refresh_tokens (
      instance_id uuid,
      id          bigserial primary key,
      token       varchar(255) constraint refresh_tokens_token_unique unique,
      user_id     varchar(255),
      revoked     boolean,
      created_at  timestamptz,
      updated_at  timestamptz,
      parent      varchar(255),
      session_id  uuid references auth.sessions (id) on delete cascade
    );
    create index refresh_tokens_instance_id_idx on auth.refresh_tokens (instance_id);
    create index refresh_tokens_instance_id_user_id_idx on auth.refresh_tokens (instance_id, user_id);
    create index refresh_tokens_parent_idx on auth.refresh_tokens (parent);
    create index refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
    create index refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);
    perform pg_temp.twin_note('table', 'auth.refresh_tokens');
  end if;

  if to_regclass('auth.mfa_factors') is null then
    create table auth.mfa_factors (
      id                           uuid not null primary key,
      user_id                      uuid not null references auth.users (id) on delete cascade,
      friendly_name                text,
      factor_type                  auth.factor_type not null,
      status                       auth.factor_status not null,
      created_at                   timestamptz not null,
      updated_at                   timestamptz not null,
      secret                       text,
      phone                        text,
      last_challenged_at           timestamptz unique,
      web_authn_credential         jsonb,
      web_authn_aaguid             uuid,
      last_webauthn_challenge_data jsonb
    );
    create unique index mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id)
      where trim(friendly_name) <> '';
    create unique index unique_phone_factor_per_user on auth.mfa_factors (user_id, phone);
    perform pg_temp.twin_note('table', 'auth.mfa_factors');
  end if;

  if to_regclass('auth.mfa_challenges') is null then
    create table auth.mfa_challenges (
      id                     uuid not null primary key,
      factor_id              uuid not null constraint mfa_challenges_auth_factor_id_fkey
                               references auth.mfa_factors (id) on delete cascade,
      created_at             timestamptz not null,
      verified_at            timestamptz,
      ip_address             inet not null,
      otp_code               text,
      web_authn_session_data jsonb
    );
    perform pg_temp.twin_note('table', 'auth.mfa_challenges');
  end if;

  if to_regclass('auth.mfa_amr_claims') is null then
    create table auth.mfa_amr_claims (
      session_id            uuid not null references auth.sessions (id) on delete cascade,
      created_at            timestamptz not null,
      updated_at            timestamptz not null,
      authentication_method text not null,
      id                    uuid not null constraint amr_id_pk primary key,
      constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
    );
    perform pg_temp.twin_note('table', 'auth.mfa_amr_claims');
  end if;

  if to_regclass('auth.audit_log_entries') is null then
    create table auth.audit_log_entries (
      instance_id uuid,
      id          uuid not null primary key,
      payload     json,
      created_at  timestamptz,
      ip_address  varchar(64) not null default ''
    );
    create index audit_logs_instance_id_idx on auth.audit_log_entries (instance_id);
    perform pg_temp.twin_note('table', 'auth.audit_log_entries');
  end if;

  if to_regclass('auth.instances') is null then
    create table auth.instances (
      id              uuid not null primary key,
      uuid            uuid,
      raw_base_config text,
      created_at      timestamptz,
      updated_at      timestamptz
    );
    perform pg_temp.twin_note('table', 'auth.instances');
  end if;

  if to_regclass('auth.schema_migrations') is null then
    create table auth.schema_migrations (version varchar(255) not null primary key);
    perform pg_temp.twin_note('table', 'auth.schema_migrations');
  end if;

  if to_regclass('auth.flow_state') is null then
    create table auth.flow_state (
      id                     uuid not null primary key,
      user_id                uuid,
      auth_code              text,
      code_challenge_method  auth.code_challenge_method,
      code_challenge         text,
      provider_type          text not null,
      provider_access_token  text,
      provider_refresh_token text,
      created_at             timestamptz,
      updated_at             timestamptz,
      authentication_method  text not null,
      auth_code_issued_at    timestamptz,
      invite_token           text,
      referrer               text,
      oauth_client_state_id  uuid,
      linking_target_id      uuid,
      email_optional         boolean not null default false
    );
    perform pg_temp.twin_note('table', 'auth.flow_state');
  end if;

  if to_regclass('auth.one_time_tokens') is null then
    create table auth.one_time_tokens (
      id         uuid not null primary key,
      user_id    uuid not null references auth.users (id) on delete cascade,
      token_type auth.one_time_token_type not null,
      token_hash text not null check (char_length(token_hash) > 0),
      relates_to text not null,
      created_at timestamp not null default now(),
      updated_at timestamp not null default now()
    );
    create unique index one_time_tokens_user_id_token_type_key on auth.one_time_tokens (user_id, token_type);
    perform pg_temp.twin_note('table', 'auth.one_time_tokens');
  end if;

  if to_regclass('auth.sso_providers') is null then
    create table auth.sso_providers (
      id          uuid not null primary key,
      resource_id text constraint "resource_id not empty"
                    check (resource_id = null or char_length(resource_id) > 0),
      created_at  timestamptz,
      updated_at  timestamptz,
      disabled    boolean
    );
    create unique index sso_providers_resource_id_idx on auth.sso_providers (lower(resource_id));
    perform pg_temp.twin_note('table', 'auth.sso_providers');
  end if;

  if to_regclass('auth.sso_domains') is null then
    create table auth.sso_domains (
      id              uuid not null primary key,
      sso_provider_id uuid not null references auth.sso_providers (id) on delete cascade,
      domain          text not null constraint "domain not empty" check (char_length(domain) > 0),
      created_at      timestamptz,
      updated_at      timestamptz
    );
    create unique index sso_domains_domain_idx on auth.sso_domains (lower(domain));
    perform pg_temp.twin_note('table', 'auth.sso_domains');
  end if;

  if to_regclass('auth.saml_providers') is null then
    create table auth.saml_providers (
      id                uuid not null primary key,
      sso_provider_id   uuid not null references auth.sso_providers (id) on delete cascade,
      entity_id         text not null unique constraint "entity_id not empty" check (char_length(entity_id) > 0),
      metadata_xml      text not null constraint "metadata_xml not empty" check (char_length(metadata_xml) > 0),
      metadata_url      text constraint "metadata_url not empty"
                          check (metadata_url = null or char_length(metadata_url) > 0),
      attribute_mapping jsonb,
      created_at        timestamptz,
      updated_at        timestamptz,
      name_id_format    text
    );
    perform pg_temp.twin_note('table', 'auth.saml_providers');
  end if;

  if to_regclass('auth.saml_relay_states') is null then
    create table auth.saml_relay_states (
      id              uuid not null primary key,
      sso_provider_id uuid not null references auth.sso_providers (id) on delete cascade,
      request_id      text not null constraint "request_id not empty" check (char_length(request_id) > 0),
      for_email       text,
      redirect_to     text,
      created_at      timestamptz,
      updated_at      timestamptz,
      flow_state_id   uuid references auth.flow_state (id) on delete cascade
    );
    perform pg_temp.twin_note('table', 'auth.saml_relay_states');
  end if;
end
$twin$;

-- Owner, row-level security and grants of the tables created above.
do $twin$
declare
  created record;
  owned record;
begin
  for created in select name from pg_temp.twin_created where kind = 'table' and name like 'auth.%' loop
    execute format('alter table %s owner to supabase_auth_admin', created.name);
    execute format('alter table %s enable row level security', created.name);
    perform pg_temp.twin_grant('table', created.name, 'select', 'postgres', true);
    -- The auth server's migration history: postgres reads it, nobody else touches it.
    continue when created.name = 'auth.schema_migrations';
    perform pg_temp.twin_grant('table', created.name, 'select, insert, update, delete, truncate, references, trigger',
                               'dashboard_user');
    perform pg_temp.twin_grant('table', created.name, 'insert, update, delete, truncate, references, trigger',
                               'postgres');
    -- Its own sequences (auth.refresh_tokens.id is a bigserial): all to postgres and
    -- dashboard_user, so a dump's setval works (PG mig/20211115181400).
    for owned in select d.objid::regclass::text as name from pg_catalog.pg_depend d
                 join pg_catalog.pg_class s on s.oid = d.objid and s.relkind = 'S'
                 where d.classid = 'pg_catalog.pg_class'::regclass and d.refobjid = created.name::regclass
                   and d.deptype in ('a', 'i') loop
      perform pg_temp.twin_grant('sequence', owned.name, 'usage, select, update', grantee)
      from unnest(array['postgres', 'dashboard_user']) as grantee;
    end loop;
  end loop;
end
$twin$;
