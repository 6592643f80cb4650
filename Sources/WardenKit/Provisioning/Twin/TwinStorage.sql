-- pgwarden twin, step 4: the storage schema as Supabase's storage server (v1.70.6)
-- leaves it, for what apps' migrations and policies use: buckets and objects
-- (owned by supabase_storage_admin, row-level security on, granted to the API roles
-- and postgres), the S3 multipart upload tables (ST 0021, 0022, 0025, 0057: same owner,
-- row-level security on, service_role and postgres all, anon and authenticated select),
-- the migration history table, foldername(), filename(), extension(), and the guard
-- against direct deletes. Facts and sources: docs/supabase-twin.md, "storage".
-- Analytics and vector tables, and the storage server's own functions, are left out.

do $twin$
begin
  if to_regnamespace('storage') is null then
    create schema storage authorization supabase_admin;
    perform pg_temp.twin_note('schema', 'storage');
  end if;
end
$twin$;

select pg_temp.twin_grant('schema', 'storage', 'usage', grantee)
from unnest(array['anon', 'authenticated', 'service_role']) as grantee
where pg_temp.twin_is_new('storage');
select pg_temp.twin_grant('schema', 'storage', 'usage', 'postgres', true)
where pg_temp.twin_is_new('storage');
select pg_temp.twin_grant('schema', 'storage', 'usage, create', grantee)
from unnest(array['supabase_storage_admin', 'dashboard_user']) as grantee
where pg_temp.twin_is_new('storage');
select pg_temp.twin_default_privileges(owner, 'storage', grantee)
from unnest(array['postgres', 'supabase_storage_admin']) as owner,
     unnest(array['postgres', 'anon', 'authenticated', 'service_role']) as grantee;

do $twin$
begin
  if to_regtype('storage.buckettype') is null then
    create type storage.buckettype as enum ('STANDARD', 'ANALYTICS', 'VECTOR');
    alter type storage.buckettype owner to supabase_storage_admin;
    perform pg_temp.twin_note('type', 'storage.buckettype');
  end if;

  if to_regclass('storage.buckets') is null then
    create table storage.buckets (
      id                 text not null primary key,
      name               text not null,
      owner              uuid,
      created_at         timestamptz default now(),
      updated_at         timestamptz default now(),
      public             boolean default false,
      avif_autodetection boolean default false,
      file_size_limit    bigint,
      allowed_mime_types text[],
      owner_id           text,
      type               storage.buckettype not null default 'STANDARD',
      versioning_status  text not null default 'DISABLED',
      constraint buckets_versioning_status_check
        check (versioning_status in ('DISABLED', 'ENABLED', 'SUSPENDED')),
      constraint buckets_versioning_standard_only_check
        check (type = 'STANDARD' or versioning_status = 'DISABLED'),
      constraint buckets_versioning_dark_check check (versioning_status = 'DISABLED')
    );
    create unique index bname on storage.buckets (name);
    perform pg_temp.twin_note('table', 'storage.buckets');
  end if;

  if to_regclass('storage.objects') is null then
    create table storage.objects (
      id               uuid not null default gen_random_uuid() primary key,
      bucket_id        text constraint "objects_bucketId_fkey" references storage.buckets (id),
      name             text,
      owner            uuid,
      created_at       timestamptz default now(),
      updated_at       timestamptz default now(),
      last_accessed_at timestamptz default now(),
      metadata         jsonb,
      path_tokens      text[] generated always as (string_to_array(name, '/')) stored,
      version          text,
      owner_id         text,
      user_metadata    jsonb,
      archived_at      timestamptz,
      is_delete_marker boolean not null default false,
      is_versioned     boolean not null default false
    );
    create unique index bucketid_objname on storage.objects (bucket_id, name);
    create index name_prefix_search on storage.objects (name text_pattern_ops);
    create index idx_objects_bucket_id_name on storage.objects (bucket_id, name collate "C");
    perform pg_temp.twin_note('table', 'storage.objects');
  end if;

  -- The S3 protocol's uploads in progress and their parts (ST 0021-s3-multipart-uploads.sql;
  -- sizes bigint since 0022, user_metadata since 0025, metadata since 0057).
  if to_regclass('storage.s3_multipart_uploads') is null then
    create table storage.s3_multipart_uploads (
      id               text not null primary key,
      in_progress_size bigint not null default 0,
      upload_signature text not null,
      bucket_id        text not null references storage.buckets (id),
      key              text collate "C" not null,
      version          text not null,
      owner_id         text,
      created_at       timestamptz not null default now(),
      user_metadata    jsonb,
      metadata         jsonb
    );
    create index idx_multipart_uploads_list on storage.s3_multipart_uploads (bucket_id, key collate "C", created_at);
    perform pg_temp.twin_note('table', 'storage.s3_multipart_uploads');
  end if;

  if to_regclass('storage.s3_multipart_uploads_parts') is null then
    create table storage.s3_multipart_uploads_parts (
      id          uuid not null default gen_random_uuid() primary key,
      upload_id   text not null references storage.s3_multipart_uploads (id) on delete cascade,
      size        bigint not null default 0,
      part_number integer not null,
      bucket_id   text not null references storage.buckets (id),
      key         text collate "C" not null,
      etag        text not null,
      owner_id    text,
      version     text not null,
      created_at  timestamptz not null default now()
    );
    perform pg_temp.twin_note('table', 'storage.s3_multipart_uploads_parts');
  end if;

  if to_regclass('storage.migrations') is null then
    create table storage.migrations (
      id          integer not null primary key,
      name        varchar(100) not null unique,
      hash        varchar(40) not null,
      executed_at timestamp default current_timestamp
    );
    perform pg_temp.twin_note('table', 'storage.migrations');
  end if;
end
$twin$;

-- Path helpers policies use. A name is a path: 'folder/sub/file.ext'.
do $twin$
begin
  if to_regprocedure('storage.foldername(text)') is null then
    -- Every segment of the path but the last: 'a/b/c.png' -> {a,b}.
    create function storage.foldername(name text) returns text[]
      language plpgsql immutable
    as $fn$
    declare
      segments text[] := string_to_array(name, '/');
    begin
      return segments[1 : array_length(segments, 1) - 1];
    end
    $fn$;
    perform pg_temp.twin_note('function', 'storage.foldername(text)');
  end if;
  if to_regprocedure('storage.filename(text)') is null then
    -- The last segment: 'a/b/c.png' -> 'c.png'.
    create function storage.filename(name text) returns text
      language plpgsql immutable
    as $fn$
    declare
      segments text[] := string_to_array(name, '/');
    begin
      return segments[array_length(segments, 1)];
    end
    $fn$;
    perform pg_temp.twin_note('function', 'storage.filename(text)');
  end if;
  if to_regprocedure('storage.extension(text)') is null then
    -- What follows the last dot of the file name: 'a/b/c.tar.gz' -> 'gz'.
    create function storage.extension(name text) returns text
      language plpgsql immutable
    as $fn$
    declare
      segments text[] := string_to_array(name, '/');
      file text := segments[array_length(segments, 1)];
    begin
      return reverse(split_part(reverse(file), '.', 1));
    end
    $fn$;
    perform pg_temp.twin_note('function', 'storage.extension(text)');
  end if;

  -- Direct deletes are refused (42501) unless the transaction says it is the storage
  -- server (which sets storage.allow_delete_query for every request it makes).
  if to_regprocedure('storage.protect_delete()') is null then
    create function storage.protect_delete() returns trigger
      language plpgsql
    as $fn$
    begin
      if coalesce(current_setting('storage.allow_delete_query', true), 'false') <> 'true' then
        raise exception 'deleting from % directly is refused: remove files through the storage API', tg_table_name
          using errcode = '42501',
                hint = 'The storage server sets storage.allow_delete_query to true for the transaction.';
      end if;
      return null;
    end
    $fn$;
    perform pg_temp.twin_note('function', 'storage.protect_delete()');
  end if;
  if to_regprocedure('storage.update_updated_at_column()') is null then
    create function storage.update_updated_at_column() returns trigger
      language plpgsql
    as $fn$
    begin
      new.updated_at := now();
      return new;
    end
    $fn$;
    perform pg_temp.twin_note('function', 'storage.update_updated_at_column()');
  end if;

  if pg_temp.twin_is_new('storage.buckets') then
    create trigger protect_buckets_delete before delete on storage.buckets
      for each statement execute function storage.protect_delete();
  end if;
  if pg_temp.twin_is_new('storage.objects') then
    create trigger protect_objects_delete before delete on storage.objects
      for each statement execute function storage.protect_delete();
    create trigger update_objects_updated_at before update on storage.objects
      for each row execute function storage.update_updated_at_column();
  end if;
end
$twin$;

-- Owner, row-level security and grants of what was created above.
do $twin$
declare
  created record;
begin
  for created in select name from pg_temp.twin_created where kind = 'table' and name like 'storage.%' loop
    execute format('alter table %s owner to supabase_storage_admin', created.name);
    execute format('alter table %s enable row level security', created.name);
    -- The storage server's own history: nobody else (revoking writes its owner's entry).
    if created.name = 'storage.migrations' then
      revoke all on storage.migrations from anon, authenticated, service_role, postgres;
      continue;
    end if;
    -- S3 uploads: all to service_role and (by the storage schema's default privileges,
    -- ST 0002) postgres; anon and authenticated only select (ST 0021).
    if created.name in ('storage.s3_multipart_uploads', 'storage.s3_multipart_uploads_parts') then
      perform pg_temp.twin_grant('table', created.name, 'select, insert, update, delete, truncate, references, trigger',
                                 grantee)
      from unnest(array['service_role', 'postgres']) as grantee;
      perform pg_temp.twin_grant('table', created.name, 'select', grantee)
      from unnest(array['anon', 'authenticated']) as grantee;
      continue;
    end if;
    perform pg_temp.twin_grant('table', created.name, 'select, insert, update, delete, truncate, references, trigger',
                               grantee)
    from unnest(array['anon', 'authenticated', 'service_role']) as grantee;
    perform pg_temp.twin_grant('table', created.name, 'select, insert, update, delete, truncate, references, trigger',
                               'postgres', true);
  end loop;
  for created in select name from pg_temp.twin_created where kind = 'function' and name like 'storage.%' loop
    execute format('alter function %s owner to supabase_storage_admin', created.name);
    perform pg_temp.twin_grant('function', created.name, 'execute', grantee)
    from unnest(array['anon', 'authenticated', 'service_role', 'postgres']) as grantee;
    if created.name in ('storage.foldername(text)', 'storage.filename(text)', 'storage.extension(text)') then
      perform pg_temp.twin_grant('function', created.name, 'execute', 'dashboard_user');
    end if;
  end loop;
end
$twin$;
