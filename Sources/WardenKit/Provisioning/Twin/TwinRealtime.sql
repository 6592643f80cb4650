-- pgwarden twin, step 4b: what Supabase Realtime leaves in a new project's `realtime`
-- schema that projects' SQL uses: the authorization table realtime.messages (Broadcast
-- and Presence policies are written on it), realtime.topic(), realtime.send(),
-- realtime.send_binary(), realtime.broadcast_changes(), and realtime.subscription
-- (Postgres Changes) with its types. The Realtime server makes them with its own
-- tenant migrations, connected as supabase_admin (supabase/realtime
-- lib/realtime/tenants/repo/migrations, up to 20260709120000, commit 833cf36), then
-- hands them to supabase_realtime_admin (20260707120000_restrict_realtime_schema).
-- The server's internals (apply_rls, list_changes, the filter checks, ...) are not
-- mirrored. Facts and sources: docs/supabase-twin.md, "realtime".

-- The schema (made by TwinDatabase.sql): USAGE for the API roles
-- (20231204144023_set_required_grants), everything for supabase_realtime_admin
-- (20240401105812_create_realtime_admin_and_move_ownership).
select pg_temp.twin_grant('schema', 'realtime', 'usage', grantee)
from unnest(array['anon', 'authenticated', 'service_role']) as grantee;
select pg_temp.twin_grant('schema', 'realtime', 'usage, create', 'supabase_realtime_admin');

-- Types ------------------------------------------------------------------------------

do $twin$
begin
  if to_regtype('realtime.action') is null then
    create type realtime.action as enum ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'ERROR');
    alter type realtime.action owner to supabase_realtime_admin;
    perform pg_temp.twin_note('type', 'realtime.action');
  end if;
  -- The filter operators: the first six (20211116024918), `in` (20230128025114), the
  -- PostgREST-style ones (20260626120000_readd_postgrest_filter_ops).
  if to_regtype('realtime.equality_op') is null then
    create type realtime.equality_op as enum (
      'eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'like', 'ilike', 'is', 'match', 'imatch', 'isdistinct');
    alter type realtime.equality_op owner to supabase_realtime_admin;
    perform pg_temp.twin_note('type', 'realtime.equality_op');
  end if;
  if to_regtype('realtime.user_defined_filter') is null then
    create type realtime.user_defined_filter as (column_name text, op realtime.equality_op, value text, negate boolean);
    alter type realtime.user_defined_filter owner to supabase_realtime_admin;
    perform pg_temp.twin_note('type', 'realtime.user_defined_filter');
  end if;
end
$twin$;

-- Functions --------------------------------------------------------------------------
-- Our own text, behaving as the latest upstream definitions. All owned by
-- supabase_realtime_admin, none security definer: realtime.send() inserts as its
-- caller, so the caller's privileges and realtime.messages' policies apply.

do $twin$
begin
  -- The channel being authorized: the Realtime server sets `realtime.topic` (with
  -- `role`, `request.jwt.claims`, ...) before it reads or writes realtime.messages as
  -- the client (lib/realtime/tenants/authorization.ex, set_conn_config).
  if to_regprocedure('realtime.topic()') is null then
    create function realtime.topic() returns text
      language sql stable
    as $fn$ select nullif(pg_catalog.current_setting('realtime.topic', true), '')::text $fn$;
    alter function realtime.topic() owner to supabase_realtime_admin;
    perform pg_temp.twin_note('function', 'realtime.topic()');
  end if;

  -- Used by subscription's generated claims_role (20211210212804).
  if to_regprocedure('realtime.to_regrole(text)') is null then
    create function realtime.to_regrole(role_name text) returns regrole
      language sql immutable
    as $fn$ select role_name::regrole $fn$;
    alter function realtime.to_regrole(text) owner to supabase_realtime_admin;
    perform pg_temp.twin_note('function', 'realtime.to_regrole(text)');
  end if;

  -- A Broadcast message from the database (20260605120000_rename_broadcast_send_warning):
  -- the payload gets an `id` (the row's) unless it has one; the topic is set for the
  -- insert's policies; a failed insert (no policy lets the caller, no partition) is a
  -- warning, not an error, and leaves no row.
  if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is null then
    create function realtime.send(payload jsonb, event text, topic text, private boolean default true) returns void
      language plpgsql volatile
    as $fn$
    declare
      message_id uuid := gen_random_uuid();
    begin
      begin
        execute format('set local realtime.topic to %L', topic);
        insert into realtime.messages (id, payload, event, topic, private, extension)
        values (message_id,
                case when payload ? 'id' then payload else jsonb_set(payload, '{id}', to_jsonb(message_id)) end,
                event, topic, private, 'broadcast');
      exception when others then
        raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
      end;
    end
    $fn$;
    alter function realtime.send(jsonb, text, text, boolean) owner to supabase_realtime_admin;
    perform pg_temp.twin_note('function', 'realtime.send(jsonb, text, text, boolean)');
  end if;

  -- The same with a binary payload (20260605120000).
  if to_regprocedure('realtime.send_binary(bytea, text, text, boolean)') is null then
    create function realtime.send_binary(payload bytea, event text, topic text, private boolean default true) returns void
      language plpgsql volatile
    as $fn$
    begin
      begin
        execute format('set local realtime.topic to %L', topic);
        insert into realtime.messages (id, binary_payload, event, topic, private, extension)
        values (gen_random_uuid(), payload, event, topic, private, 'broadcast');
      exception when others then
        raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
      end;
    end
    $fn$;
    alter function realtime.send_binary(bytea, text, text, boolean) owner to supabase_realtime_admin;
    perform pg_temp.twin_note('function', 'realtime.send_binary(bytea, text, text, boolean)');
  end if;

  -- For a row trigger: sends {old_record, record, operation, table, schema} on a private
  -- topic (20240919163303_add_payload_to_messages).
  if to_regprocedure('realtime.broadcast_changes(text, text, text, text, text, record, record, text)') is null then
    create function realtime.broadcast_changes(topic_name text, event_name text, operation text, table_name text,
                                               table_schema text, new record, old record, level text default 'ROW')
      returns void
      language plpgsql volatile
    as $fn$
    begin
      if level = 'STATEMENT' then
        raise exception 'function can only be triggered for each row, not for each statement';
      end if;
      if operation not in ('INSERT', 'UPDATE', 'DELETE') then
        raise exception 'Unexpected operation type: %', operation;
      end if;
      perform realtime.send(jsonb_build_object('old_record', old, 'record', new, 'operation', operation,
                                               'table', table_name, 'schema', table_schema),
                            event_name, topic_name);
    exception when others then
      raise exception 'Failed to process the row: %', sqlerrm;
    end
    $fn$;
    alter function realtime.broadcast_changes(text, text, text, text, text, record, record, text)
      owner to supabase_realtime_admin;
    perform pg_temp.twin_note('function', 'realtime.broadcast_changes(text, text, text, text, text, record, record, text)');
  end if;
end
$twin$;

-- Every function: EXECUTE for everyone (PostgreSQL's default), and ALL for postgres
-- and dashboard_user, as supabase_admin's default privileges in realtime give them
-- (PG migrations/20211130151719_update-realtime-permissions.sql).
select pg_temp.twin_grant('function', signature, 'execute', grantee)
from unnest(array['realtime.topic()', 'realtime.to_regrole(text)', 'realtime.send(jsonb, text, text, boolean)',
                  'realtime.send_binary(bytea, text, text, boolean)',
                  'realtime.broadcast_changes(text, text, text, text, text, record, record, text)']) as signature,
     unnest(array['postgres', 'dashboard_user']) as grantee
where pg_temp.twin_is_new(signature);

-- realtime.messages ------------------------------------------------------------------
-- Columns as 20240523004032, 20240919163303, 20241030150047_messages_partitioning,
-- 20241108114728_messages_using_uuid and 20260514120000_add_binary_payload_to_messages
-- leave them; partitioned by day on inserted_at. The Realtime server creates the daily
-- partitions (yesterday to three days ahead) whenever it connects
-- (lib/realtime/tenants.ex, create_messages_partitions); no such server runs here, so
-- the twin has one default partition instead, which takes every day.

do $twin$
begin
  if to_regclass('realtime.messages') is null then
    create table realtime.messages (
      topic text not null,
      extension text not null,
      payload jsonb,
      event text,
      private boolean default false,
      updated_at timestamp without time zone not null default now(),
      inserted_at timestamp without time zone not null default now(),
      id uuid not null default gen_random_uuid(),
      binary_payload bytea,
      constraint messages_pkey primary key (id, inserted_at)
    ) partition by range (inserted_at);
    alter table realtime.messages
      add constraint messages_payload_exclusive check (payload is null or binary_payload is null) not valid;
    create index messages_inserted_at_topic_index on realtime.messages (inserted_at desc, topic)
      where extension = 'broadcast' and private is true;
    alter table realtime.messages enable row level security;
    alter table realtime.messages owner to supabase_realtime_admin;
    create table realtime.messages_pgwarden_default partition of realtime.messages default;
    alter table realtime.messages_pgwarden_default owner to supabase_realtime_admin;
    perform pg_temp.twin_note('table', 'realtime.messages');
  end if;
end
$twin$;

select pg_temp.twin_grant('table', relation, 'select, insert, update, delete, truncate, references, trigger', grantee)
from unnest(array['realtime.messages', 'realtime.messages_pgwarden_default']) as relation,
     unnest(array['postgres', 'dashboard_user']) as grantee
where pg_temp.twin_is_new('realtime.messages');
-- 20241030150047: what a client's Realtime session may try (policies decide).
select pg_temp.twin_grant('table', 'realtime.messages', 'select, insert, update', grantee)
from unnest(array['anon', 'authenticated', 'service_role']) as grantee
where pg_temp.twin_is_new('realtime.messages');

-- realtime.subscription --------------------------------------------------------------
-- Postgres Changes' subscriptions, written by the Realtime server (20211116024918,
-- 20211210212804, 20251120212548_add_action_to_subscriptions,
-- 20260527120000_add_select_columns_to_subscriptions). Row-level security off. Its
-- filter-checking trigger is the server's business and is not mirrored.

do $twin$
begin
  if to_regclass('realtime.subscription') is null then
    create table realtime.subscription (
      id bigint not null generated always as identity,
      subscription_id uuid not null,
      entity regclass not null,
      filters realtime.user_defined_filter[] not null default '{}',
      claims jsonb not null,
      claims_role regrole not null generated always as (realtime.to_regrole(claims ->> 'role')) stored,
      created_at timestamp without time zone not null default timezone('utc', now()),
      action_filter text default '*' check (action_filter in ('*', 'INSERT', 'UPDATE', 'DELETE')),
      selected_columns text[] default null,
      constraint pk_subscription primary key (id)
    );
    create index ix_realtime_subscription_entity on realtime.subscription using hash (entity);
    create unique index subscription_subscription_id_entity_filters_action_filter_selected_columns_key
      on realtime.subscription (subscription_id, entity, filters, action_filter, coalesce(selected_columns, '{}'));
    alter table realtime.subscription owner to supabase_realtime_admin;
    perform pg_temp.twin_note('table', 'realtime.subscription');
  end if;
end
$twin$;

select pg_temp.twin_grant('table', 'realtime.subscription', 'select, insert, update, delete, truncate, references, trigger',
                          grantee)
from unnest(array['postgres', 'dashboard_user']) as grantee
where pg_temp.twin_is_new('realtime.subscription');
select pg_temp.twin_grant('table', 'realtime.subscription', 'select', grantee)
from unnest(array['anon', 'authenticated', 'service_role']) as grantee
where pg_temp.twin_is_new('realtime.subscription');

do $twin$
begin
  if pg_temp.twin_is_new('realtime.subscription') then
    grant all on sequence realtime.subscription_id_seq to postgres, dashboard_user;
    grant usage on sequence realtime.subscription_id_seq to anon, authenticated, service_role;
  end if;
end
$twin$;
