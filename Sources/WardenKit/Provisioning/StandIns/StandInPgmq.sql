-- pgwarden's local stand-in for pgmq (a message queue in plain SQL upstream; Supabase
-- Queues), written from its documented API (https://github.com/pgmq/pgmq README and
-- docs/api/sql/functions.md; Supabase docs, guides/queues) as of pgmq 1.5.1 (tag
-- v1.5.1, commit 7fd411d), the version current Supabase images ship (PG
-- nix/ext/versions.json lists pgmq 1.4.4 for PostgreSQL 15 and 1.5.1 for 15 and 17;
-- pgflow's migration 20251104080523_pgflow_upgrade_pgmq_1_5_1.sql needs 1.5).
-- A queue is a table pgmq.q_<name> (and pgmq.a_<name> for archived messages), the
-- name lower-cased by format_table_name; every message has `headers jsonb` (1.5.0).
-- create, create_non_partitioned, create_unlogged, send and send_batch (with headers
-- and/or a delay in seconds or as a timestamptz), read (with `conditional`),
-- read_with_poll, pop, set_vt, delete and archive of one id (-> boolean) or of an
-- array of ids (-> the ids done, as a set), purge_queue, drop_queue, list_queues,
-- metrics, metrics_all, detach_archive. It always lives in schema pgmq: as upstream's
-- pgmq.control (`schema = 'pgmq'`), the stand-in's control file names it, so
-- PostgreSQL creates the schema when missing (the script does not), and both `create
-- extension pgmq` (any search_path) and a dump's `create schema if not exists pgmq;
-- create extension if not exists pgmq with schema pgmq` work.

create type pgmq.message_record as (msg_id bigint, read_ct integer, enqueued_at timestamptz, vt timestamptz,
                                    message jsonb, headers jsonb);
create type pgmq.queue_record as (queue_name varchar, is_partitioned boolean, is_unlogged boolean,
                                  created_at timestamptz);
create type pgmq.metrics_result as (queue_name text, queue_length bigint, newest_msg_age_sec integer,
                                    oldest_msg_age_sec integer, total_messages bigint, scrape_time timestamptz,
                                    queue_visible_length bigint);

create table pgmq.meta (
  queue_name varchar primary key,
  is_partitioned boolean not null default false,
  is_unlogged boolean not null default false,
  created_at timestamptz not null default now());

-- The name of a queue's table ('q') or archive ('a'), unqualified, as pgmq names them:
-- lower-cased, and never with the characters that would end a quoted name or statement.
create function pgmq.format_table_name(queue_name text, prefix text) returns text
  language plpgsql immutable
as $fn$
begin
  if queue_name ~ '[$;'']' or strpos(queue_name, '--') > 0 then
    raise exception 'queue name "%" contains a character pgmq refuses: $, ;, -- or ''', queue_name
      using errcode = 'invalid_parameter_value';
  end if;
  return pg_catalog.lower(prefix || '_' || queue_name);
end
$fn$;

create function pgmq.validate_queue_name(queue_name text) returns void
  language plpgsql immutable
as $fn$
begin
  if pg_catalog.length(queue_name) > 47 then
    raise exception 'queue name "%" is too long: at most 47 characters', queue_name
      using errcode = 'invalid_parameter_value';
  end if;
end
$fn$;

-- The schema-qualified, quoted name of a queue's table: the stand-in's own helper.
create function pgmq.pgwarden_table(queue_name text, prefix text) returns text
  language sql immutable
as $fn$ select pg_catalog.format('pgmq.%I', pgmq.format_table_name(queue_name, prefix)) $fn$;

create function pgmq.create_non_partitioned(queue_name text) returns void
  language plpgsql volatile
as $fn$
declare
  q text := pgmq.pgwarden_table(queue_name, 'q');
  a text := pgmq.pgwarden_table(queue_name, 'a');
begin
  perform pgmq.validate_queue_name(queue_name);
  execute pg_catalog.format('create table if not exists %s (msg_id bigint primary key generated always as identity, '
    || 'read_ct integer not null default 0, enqueued_at timestamptz not null default now(), '
    || 'vt timestamptz not null, message jsonb, headers jsonb)', q);
  execute pg_catalog.format('create table if not exists %s (msg_id bigint primary key, read_ct integer not null default 0, '
    || 'enqueued_at timestamptz not null default now(), archived_at timestamptz not null default now(), '
    || 'vt timestamptz not null, message jsonb, headers jsonb)', a);
  execute pg_catalog.format('create index if not exists %I on %s (vt)', pgmq.format_table_name(queue_name, 'q') || '_vt_idx', q);
  execute pg_catalog.format('create index if not exists %I on %s (archived_at)', 'archived_at_idx_' || queue_name, a);
  insert into pgmq.meta (queue_name) values (queue_name) on conflict do nothing;
end
$fn$;

create function pgmq.create(queue_name text) returns void
  language sql volatile
as $fn$ select pgmq.create_non_partitioned(queue_name) $fn$;

create function pgmq.create_unlogged(queue_name text) returns void
  language plpgsql volatile
as $fn$
begin
  perform pgmq.create_non_partitioned(queue_name);
  execute pg_catalog.format('alter table %s set unlogged', pgmq.pgwarden_table(queue_name, 'q'));
  update pgmq.meta m set is_unlogged = true where m.queue_name = create_unlogged.queue_name;
end
$fn$;

create function pgmq.create_partitioned(queue_name text, partition_interval text default '10000',
                                        retention_interval text default '100000') returns void
  language plpgsql volatile
as $fn$
begin
  raise exception 'pgmq is a local stand-in on the pgwarden twin: partitioned queues (pg_partman) are not available; queue "%" was not created', queue_name
    using errcode = 'feature_not_supported',
          hint = 'use pgmq.create locally, or run against a server with pgmq and pg_partman (--database-url, e.g. Supabase''s own image)';
end
$fn$;

-- send_batch and send: the messages become visible at `delay` (a time), or that many
-- seconds from now; headers (one per message, by position) default to null.
create function pgmq.send_batch(queue_name text, msgs jsonb[], headers jsonb[], delay timestamptz) returns setof bigint
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'insert into %s (vt, message, headers) select $3, m.msg, $2[m.n] from unnest($1) with ordinality m(msg, n) '
    || 'order by m.n returning msg_id', pgmq.pgwarden_table(queue_name, 'q')) using msgs, headers, delay;
end
$fn$;

create function pgmq.send_batch(queue_name text, msgs jsonb[], headers jsonb[], delay integer) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send_batch(queue_name, msgs, headers, clock_timestamp() + make_interval(secs => delay)) $fn$;

create function pgmq.send_batch(queue_name text, msgs jsonb[], headers jsonb[]) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send_batch(queue_name, msgs, headers, clock_timestamp()) $fn$;

create function pgmq.send_batch(queue_name text, msgs jsonb[], delay timestamptz) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send_batch(queue_name, msgs, null::jsonb[], delay) $fn$;

create function pgmq.send_batch(queue_name text, msgs jsonb[], delay integer) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send_batch(queue_name, msgs, null::jsonb[], clock_timestamp() + make_interval(secs => delay)) $fn$;

create function pgmq.send_batch(queue_name text, msgs jsonb[]) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send_batch(queue_name, msgs, null::jsonb[], clock_timestamp()) $fn$;

create function pgmq.send(queue_name text, msg jsonb, headers jsonb, delay timestamptz) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send_batch(queue_name, array[msg], array[headers], delay) $fn$;

create function pgmq.send(queue_name text, msg jsonb, headers jsonb, delay integer) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send(queue_name, msg, headers, clock_timestamp() + make_interval(secs => delay)) $fn$;

create function pgmq.send(queue_name text, msg jsonb, headers jsonb) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send(queue_name, msg, headers, clock_timestamp()) $fn$;

create function pgmq.send(queue_name text, msg jsonb, delay timestamptz) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send(queue_name, msg, null::jsonb, delay) $fn$;

create function pgmq.send(queue_name text, msg jsonb, delay integer) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send(queue_name, msg, null::jsonb, clock_timestamp() + make_interval(secs => delay)) $fn$;

create function pgmq.send(queue_name text, msg jsonb) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send(queue_name, msg, null::jsonb, clock_timestamp()) $fn$;

-- read: up to qty visible messages, oldest first, hidden for vt seconds; with a
-- non-empty `conditional`, only messages containing it (jsonb @>).
create function pgmq.read(queue_name text, vt integer, qty integer, conditional jsonb default '{}')
  returns setof pgmq.message_record
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'with picked as (select msg_id from %1$s where vt <= clock_timestamp() and ($3 = ''{}''::jsonb or message @> $3) '
    || 'order by msg_id limit $1 for update skip locked) '
    || 'update %1$s q set vt = clock_timestamp() + make_interval(secs => $2), read_ct = q.read_ct + 1 from picked '
    || 'where q.msg_id = picked.msg_id returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message, q.headers',
    pgmq.pgwarden_table(queue_name, 'q')) using qty, vt, coalesce(conditional, '{}');
end
$fn$;

-- read_with_poll: read, trying again every poll_interval_ms until messages come or
-- max_poll_seconds have passed.
create function pgmq.read_with_poll(queue_name text, vt integer, qty integer, max_poll_seconds integer default 5,
                                    poll_interval_ms integer default 100, conditional jsonb default '{}')
  returns setof pgmq.message_record
  language plpgsql volatile
as $fn$
declare
  give_up_at timestamptz := clock_timestamp() + make_interval(secs => max_poll_seconds);
  got pgmq.message_record;
  found_any boolean;
begin
  while clock_timestamp() < give_up_at loop
    found_any := false;
    for got in select * from pgmq.read(queue_name, vt, qty, conditional) loop
      found_any := true;
      return next got;
    end loop;
    exit when found_any;
    perform pg_catalog.pg_sleep(poll_interval_ms / 1000.0);
  end loop;
end
$fn$;

create function pgmq.pop(queue_name text) returns setof pgmq.message_record
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'with picked as (select msg_id from %1$s where vt <= clock_timestamp() order by msg_id limit 1 for update skip locked) '
    || 'delete from %1$s q using picked where q.msg_id = picked.msg_id '
    || 'returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message, q.headers',
    pgmq.pgwarden_table(queue_name, 'q'));
end
$fn$;

create function pgmq.set_vt(queue_name text, msg_id bigint, vt integer) returns setof pgmq.message_record
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'update %s set vt = clock_timestamp() + make_interval(secs => $2) where msg_id = $1 '
    || 'returning msg_id, read_ct, enqueued_at, vt, message, headers', pgmq.pgwarden_table(queue_name, 'q')) using msg_id, vt;
end
$fn$;

create function pgmq.delete(queue_name text, msg_id bigint) returns boolean
  language plpgsql volatile
as $fn$
declare
  gone integer;
begin
  execute pg_catalog.format('delete from %s where msg_id = $1', pgmq.pgwarden_table(queue_name, 'q')) using msg_id;
  get diagnostics gone = row_count;
  return gone > 0;
end
$fn$;

create function pgmq.delete(queue_name text, msg_ids bigint[]) returns setof bigint
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format('delete from %s where msg_id = any($1) returning msg_id',
                                         pgmq.pgwarden_table(queue_name, 'q')) using msg_ids;
end
$fn$;

create function pgmq.archive(queue_name text, msg_ids bigint[]) returns setof bigint
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'with gone as (delete from %s where msg_id = any($1) returning msg_id, read_ct, enqueued_at, vt, message, headers) '
    || 'insert into %s (msg_id, read_ct, enqueued_at, vt, message, headers) select * from gone returning msg_id',
    pgmq.pgwarden_table(queue_name, 'q'), pgmq.pgwarden_table(queue_name, 'a')) using msg_ids;
end
$fn$;

create function pgmq.archive(queue_name text, msg_id bigint) returns boolean
  language sql volatile
as $fn$ select exists (select from pgmq.archive(queue_name, array[msg_id])) $fn$;

create function pgmq.purge_queue(queue_name text) returns bigint
  language plpgsql volatile
as $fn$
declare
  gone bigint;
begin
  execute pg_catalog.format('delete from %s', pgmq.pgwarden_table(queue_name, 'q'));
  get diagnostics gone = row_count;
  return gone;
end
$fn$;

create function pgmq.drop_queue(queue_name text) returns boolean
  language plpgsql volatile
as $fn$
begin
  if not exists (select 1 from pgmq.meta m where m.queue_name = drop_queue.queue_name) then
    return false;
  end if;
  execute pg_catalog.format('drop table if exists %s, %s', pgmq.pgwarden_table(queue_name, 'q'),
                            pgmq.pgwarden_table(queue_name, 'a'));
  delete from pgmq.meta m where m.queue_name = drop_queue.queue_name;
  return true;
end
$fn$;

-- The two-argument form is deprecated upstream (it warns, then drops the queue).
create function pgmq.drop_queue(queue_name text, partitioned boolean) returns boolean
  language plpgsql volatile
as $fn$
begin
  raise warning 'pgmq.drop_queue(queue_name, partitioned) is deprecated; use pgmq.drop_queue(queue_name)';
  return pgmq.drop_queue(queue_name);
end
$fn$;

-- Upstream takes the archive out of the extension, so that dropping the extension
-- keeps it; the stand-in's queue tables are never members of the extension, so there
-- is nothing to do.
create function pgmq.detach_archive(queue_name text) returns void
  language sql volatile
as $fn$ select pgmq.format_table_name(queue_name, 'a'); $fn$;

create function pgmq.list_queues() returns setof pgmq.queue_record
  language sql stable
as $fn$ select queue_name, is_partitioned, is_unlogged, created_at from pgmq.meta order by queue_name $fn$;

-- metrics: a queue's length, its visible part, the age of its newest and oldest
-- messages, and how many messages it has ever had (its identity's last value).
create function pgmq.metrics(queue_name text) returns pgmq.metrics_result
  language plpgsql volatile
as $fn$
declare
  result pgmq.metrics_result;
  q text := pgmq.pgwarden_table(queue_name, 'q');
  ever bigint;
begin
  execute pg_catalog.format('select case when is_called then last_value else 0 end from %s',
                            pg_catalog.pg_get_serial_sequence(q, 'msg_id')) into ever;
  execute pg_catalog.format(
    'select $1, count(*), extract(epoch from now() - max(enqueued_at))::integer, '
    || 'extract(epoch from now() - min(enqueued_at))::integer, $2, now(), count(*) filter (where vt <= now()) from %s', q)
    into result using queue_name, ever;
  return result;
end
$fn$;

create function pgmq.metrics_all() returns setof pgmq.metrics_result
  language sql volatile
as $fn$ select (pgmq.metrics(m.queue_name)).* from pgmq.meta m order by m.queue_name $fn$;

-- The queues' tables are created by whoever calls pgmq.create (on Supabase, postgres).
do $grants$
begin
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'postgres') then
    grant usage, create on schema pgmq to postgres;
    grant select, insert, update, delete on pgmq.meta to postgres;
  end if;
end
$grants$;
