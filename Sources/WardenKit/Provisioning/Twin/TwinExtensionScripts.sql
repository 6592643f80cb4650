-- pgwarden twin, step 9: what Supabase does right after `postgres` creates some
-- privileged extensions. supautils runs per-extension after-create scripts
-- (PG ansible/files/postgresql_extension_custom_scripts/<name>/after-create.sql);
-- plain PostgreSQL has none, so the twin does it with an event trigger at the end of
-- CREATE EXTENSION. pg_cron: postgres gets USAGE on schema cron and every privilege
-- on its functions, tables and sequences, with grant option. (Supabase then takes
-- back writes on cron.job, because there pg_cron's extension owner, who writes the
-- jobs, is supabase_admin; on the twin the owner is postgres, so postgres keeps them.)

do $twin$
begin
  if current_setting('supautils.privileged_role', true) is not null then
    return;
  end if;
  if to_regprocedure('extensions.pgwarden_extension_after_create()') is null then
    create function extensions.pgwarden_extension_after_create() returns event_trigger
      language plpgsql security definer set search_path = ''
    as $fn$
    begin
      if exists (select 1 from pg_catalog.pg_event_trigger_ddl_commands() c
                 join pg_catalog.pg_extension e on e.oid = c.objid
                 where c.classid = 'pg_catalog.pg_extension'::regclass and e.extname = 'pg_cron')
         and exists (select 1 from pg_catalog.pg_roles where rolname = 'postgres') then
        grant usage on schema cron to postgres with grant option;
        grant all on all functions in schema cron to postgres with grant option;
        grant all on all tables in schema cron to postgres with grant option;
        grant all on all sequences in schema cron to postgres with grant option;
      end if;
    end
    $fn$;
    alter function extensions.pgwarden_extension_after_create() owner to supabase_admin;
    revoke all on function extensions.pgwarden_extension_after_create() from public;
    perform pg_temp.twin_note('function', 'extensions.pgwarden_extension_after_create()');
  end if;
  if not exists (select 1 from pg_catalog.pg_event_trigger where evtname = 'pgwarden_extension_after_create') then
    create event trigger pgwarden_extension_after_create on ddl_command_end when tag in ('CREATE EXTENSION')
      execute function extensions.pgwarden_extension_after_create();
    alter event trigger pgwarden_extension_after_create owner to supabase_admin;
    perform pg_temp.twin_note('event_trigger', 'pgwarden_extension_after_create');
  end if;
end
$twin$;
