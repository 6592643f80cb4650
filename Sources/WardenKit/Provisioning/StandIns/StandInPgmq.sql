-- pgwarden's local stand-in for pgmq (a message queue in plain SQL upstream; Supabase
-- Queues), written from its documented API (https://github.com/pgmq/pgmq README and
-- docs/api/sql/functions.md; Supabase docs, guides/queues): a queue is a table
-- pgmq.q_<name> (and pgmq.a_<name> for archived messages); create, send,
-- send_batch, read, pop, set_vt, delete, archive, purge_queue, drop_queue,
-- list_queues; delete and archive of one id (-> boolean) or of an array of ids
-- (-> the ids done, as a set), as in pgmq 1.4.4 (tag v1.4.4, commit 9787166, the
-- version supabase/postgres nix/ext/pgmq.nix pins). It always lives in schema pgmq:
-- as upstream's pgmq.control (`schema = 'pgmq'`), the stand-in's control file names
-- it, so PostgreSQL creates the schema when missing (the script does not), and both
-- `create extension pgmq` (any search_path) and a dump's `create schema if not exists
-- pgmq; create extension if not exists pgmq with schema pgmq` work.

create type pgmq.message_record as (msg_id bigint, read_ct integer, enqueued_at timestamptz, vt timestamptz,
                                    message jsonb);
create type pgmq.queue_record as (queue_name varchar, is_partitioned boolean, is_unlogged boolean,
                                  created_at timestamptz);

create table pgmq.meta (
  queue_name varchar primary key,
  is_partitioned boolean not null default false,
  is_unlogged boolean not null default false,
  created_at timestamptz not null default now());

create function pgmq.pgwarden_table(queue_name text, prefix text) returns text
  language plpgsql immutable
as $fn$
begin
  if queue_name !~ '^[a-z0-9_]{1,47}$' then
    raise exception 'queue name "%" is not valid: lower-case letters, digits and _ only, at most 47 characters', queue_name
      using errcode = 'invalid_parameter_value';
  end if;
  return pg_catalog.format('pgmq.%I', prefix || '_' || queue_name);
end
$fn$;

create function pgmq.create(queue_name text) returns void
  language plpgsql volatile
as $fn$
begin
  execute pg_catalog.format('create table if not exists %s (msg_id bigint primary key generated always as identity, '
    || 'read_ct integer not null default 0, enqueued_at timestamptz not null default now(), '
    || 'vt timestamptz not null, message jsonb)', pgmq.pgwarden_table(queue_name, 'q'));
  execute pg_catalog.format('create table if not exists %s (msg_id bigint primary key, read_ct integer not null default 0, '
    || 'enqueued_at timestamptz not null default now(), archived_at timestamptz not null default now(), '
    || 'vt timestamptz not null, message jsonb)', pgmq.pgwarden_table(queue_name, 'a'));
  insert into pgmq.meta (queue_name) values (queue_name) on conflict do nothing;
end
$fn$;

create function pgmq.create_unlogged(queue_name text) returns void
  language plpgsql volatile
as $fn$
begin
  perform pgmq.create(queue_name);
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

create function pgmq.send_batch(queue_name text, msgs jsonb[], delay integer default 0) returns setof bigint
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'insert into %s (vt, message) select now() + make_interval(secs => $2), m from unnest($1) m returning msg_id',
    pgmq.pgwarden_table(queue_name, 'q')) using msgs, delay;
end
$fn$;

create function pgmq.send(queue_name text, msg jsonb, delay integer default 0) returns setof bigint
  language sql volatile
as $fn$ select pgmq.send_batch(queue_name, array[msg], delay) $fn$;

create function pgmq.read(queue_name text, vt integer, qty integer) returns setof pgmq.message_record
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'with picked as (select msg_id from %1$s where vt <= now() order by msg_id limit $1 for update skip locked) '
    || 'update %1$s q set vt = now() + make_interval(secs => $2), read_ct = q.read_ct + 1 from picked '
    || 'where q.msg_id = picked.msg_id returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message',
    pgmq.pgwarden_table(queue_name, 'q')) using qty, vt;
end
$fn$;

create function pgmq.pop(queue_name text) returns setof pgmq.message_record
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'with picked as (select msg_id from %1$s where vt <= now() order by msg_id limit 1 for update skip locked) '
    || 'delete from %1$s q using picked where q.msg_id = picked.msg_id '
    || 'returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message',
    pgmq.pgwarden_table(queue_name, 'q'));
end
$fn$;

create function pgmq.set_vt(queue_name text, msg_id bigint, vt integer) returns setof pgmq.message_record
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'update %s set vt = now() + make_interval(secs => $2) where msg_id = $1 '
    || 'returning msg_id, read_ct, enqueued_at, vt, message', pgmq.pgwarden_table(queue_name, 'q')) using msg_id, vt;
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

create function pgmq.archive(queue_name text, msg_id bigint) returns boolean
  language plpgsql volatile
as $fn$
declare
  moved integer;
begin
  execute pg_catalog.format(
    'with gone as (delete from %s where msg_id = $1 returning msg_id, read_ct, enqueued_at, vt, message) '
    || 'insert into %s (msg_id, read_ct, enqueued_at, vt, message) select * from gone',
    pgmq.pgwarden_table(queue_name, 'q'), pgmq.pgwarden_table(queue_name, 'a')) using msg_id;
  get diagnostics moved = row_count;
  return moved > 0;
end
$fn$;

create function pgmq.archive(queue_name text, msg_ids bigint[]) returns setof bigint
  language plpgsql volatile
as $fn$
begin
  return query execute pg_catalog.format(
    'with gone as (delete from %s where msg_id = any($1) returning msg_id, read_ct, enqueued_at, vt, message) '
    || 'insert into %s (msg_id, read_ct, enqueued_at, vt, message) select * from gone returning msg_id',
    pgmq.pgwarden_table(queue_name, 'q'), pgmq.pgwarden_table(queue_name, 'a')) using msg_ids;
end
$fn$;

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

create function pgmq.list_queues() returns setof pgmq.queue_record
  language sql stable
as $fn$ select queue_name, is_partitioned, is_unlogged, created_at from pgmq.meta order by queue_name $fn$;

-- The queues' tables are created by whoever calls pgmq.create (on Supabase, postgres).
do $grants$
begin
  if exists (select 1 from pg_catalog.pg_roles where rolname = 'postgres') then
    grant usage, create on schema pgmq to postgres;
    grant select, insert, update, delete on pgmq.meta to postgres;
  end if;
end
$grants$;
