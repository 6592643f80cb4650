-- pgwarden twin, step 9: what Supabase does right after `postgres` creates some
-- privileged extensions. supautils runs per-extension after-create scripts
-- (PG ansible/files/postgresql_extension_custom_scripts/<name>/after-create.sql);
-- plain PostgreSQL has none, so the twin does it with an event trigger at the end of
-- CREATE EXTENSION. pg_cron: postgres gets USAGE on schema cron and every privilege
-- on its functions, tables and sequences, with grant option. (Supabase then takes
-- back writes on cron.job, because there pg_cron's extension owner, who writes the
-- jobs, is supabase_admin; on the twin the owner is postgres, so postgres keeps them.)
-- pg_cron also lands in pg_catalog, as supautils' extensions_parameter_overrides
-- puts it whatever schema the statement names.
-- dblink: nobody but supabase_admin may execute dblink_connect_u. pgmq: the extension's
-- tables, types and functions are handed to postgres.

do $twin$
begin
  if current_setting('supautils.privileged_role', true) is not null then
    return;
  end if;
  if to_regprocedure('extensions.pgwarden_extension_after_create()') is null then
    create function extensions.pgwarden_extension_after_create() returns event_trigger
      language plpgsql security definer set search_path = ''
    as $fn$
    declare
      member record;
    begin
      if exists (select 1 from pg_catalog.pg_event_trigger_ddl_commands() c
                 join pg_catalog.pg_extension e on e.oid = c.objid
                 where c.classid = 'pg_catalog.pg_extension'::regclass and e.extname = 'dblink') then
        for member in
          select distinct p.oid::regprocedure as routine, a.grantee
          from pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
          where p.proname = 'dblink_connect_u' and a.grantee <> 'supabase_admin'::regrole
        loop
          execute pg_catalog.format('revoke all on function %s from %s', member.routine,
                                    case when member.grantee = 0 then 'public' else member.grantee::regrole::text end);
        end loop;
      end if;
      if exists (select 1 from pg_catalog.pg_event_trigger_ddl_commands() c
                 join pg_catalog.pg_extension e on e.oid = c.objid
                 where c.classid = 'pg_catalog.pg_extension'::regclass and e.extname = 'pgmq')
         and exists (select 1 from pg_catalog.pg_roles where rolname = 'postgres') then
        for member in
          select d.classid, d.objid from pg_catalog.pg_depend d
          join pg_catalog.pg_extension e on e.oid = d.refobjid
          where e.extname = 'pgmq' and d.deptype = 'e'
        loop
          if member.classid = 'pg_catalog.pg_class'::regclass then
            execute pg_catalog.format('alter table %s owner to postgres', member.objid::regclass);
          elsif member.classid = 'pg_catalog.pg_proc'::regclass then
            execute pg_catalog.format('alter function %s owner to postgres', member.objid::regprocedure);
          elsif member.classid = 'pg_catalog.pg_type'::regclass
                and not exists (select 1 from pg_catalog.pg_class c where c.reltype = member.objid) then
            execute pg_catalog.format('alter type %s owner to postgres', member.objid::regtype);
          elsif member.classid = 'pg_catalog.pg_namespace'::regclass then
            execute pg_catalog.format('alter schema %I owner to postgres', (select nspname from pg_catalog.pg_namespace where oid = member.objid));
          end if;
        end loop;
      end if;
      if exists (select 1 from pg_catalog.pg_event_trigger_ddl_commands() c
                 join pg_catalog.pg_extension e on e.oid = c.objid
                 where c.classid = 'pg_catalog.pg_extension'::regclass and e.extname = 'pg_cron')
         and exists (select 1 from pg_catalog.pg_roles where rolname = 'postgres') then
        grant usage on schema cron to postgres with grant option;
        grant all on all functions in schema cron to postgres with grant option;
        grant all on all tables in schema cron to postgres with grant option;
        grant all on all sequences in schema cron to postgres with grant option;
        -- supautils creates pg_cron in pg_catalog whatever schema the statement names
        -- (extensions_parameter_overrides). Its script names schema cron for every
        -- object, so only the extension's own schema (and its dependency on that
        -- schema; pg_catalog is pinned and takes none) is set as supautils leaves it.
        update pg_catalog.pg_extension set extnamespace = 'pg_catalog'::regnamespace
        where extname = 'pg_cron' and extnamespace <> 'pg_catalog'::regnamespace;
        delete from pg_catalog.pg_depend
        where classid = 'pg_catalog.pg_extension'::regclass and refclassid = 'pg_catalog.pg_namespace'::regclass
          and objid = (select oid from pg_catalog.pg_extension where extname = 'pg_cron');
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
  -- Fires whatever session_replication_role is, as supautils' hook does.
  perform pg_temp.twin_enable_always('pgwarden_extension_after_create');
end
$twin$;
