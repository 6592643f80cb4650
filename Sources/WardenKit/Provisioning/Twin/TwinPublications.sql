-- pgwarden twin, step 5d: what Supabase's supautils extension does for CREATE
-- PUBLICATION. PostgreSQL 15 lets only a superuser create a publication FOR ALL TABLES
-- or FOR TABLES IN SCHEMA; on Supabase, supautils lets postgres, and the publication
-- is postgres's ("The privileged role can create publications. Once created they will
-- be owned by the privileged role": supautils' README, "Non-Superuser Publications").
-- Projects rebuild Realtime's publication that way (`drop publication if exists
-- supabase_realtime; create publication supabase_realtime for all tables;`).
-- The twin does it as step 5 does for policies: for a CREATE PUBLICATION run by a
-- postgres session, postgres is a superuser for that one command (step 5's lift,
-- extensions.pgwarden_policy_grants_start(), with its cluster-wide lock; the role
-- change is part of the command's transaction), and owns what it made; the lift ends
-- at the command's end (step 5c's extensions.pgwarden_postgres_lift_end()).
-- ALTER PUBLICATION ... ADD TABLES IN SCHEMA stays refused.

do $twin$
begin
  -- Where supautils itself runs (a Supabase server), it is the one that decides.
  if current_setting('supautils.privileged_role', true) is not null then
    return;
  end if;
  if to_regprocedure('extensions.pgwarden_publication_grants_end()') is null then
    create function extensions.pgwarden_publication_grants_end() returns event_trigger
      language plpgsql security definer set search_path = ''
    as $fn$ begin perform extensions.pgwarden_postgres_lift_end(); end $fn$;
    perform pg_temp.twin_note('function', 'extensions.pgwarden_publication_grants_end()');
  end if;

  if not exists (select 1 from pg_catalog.pg_event_trigger where evtname = 'pgwarden_publication_grants_start') then
    create event trigger pgwarden_publication_grants_start on ddl_command_start
      when tag in ('CREATE PUBLICATION')
      execute function extensions.pgwarden_policy_grants_start();
    create event trigger pgwarden_publication_grants_end on ddl_command_end
      when tag in ('CREATE PUBLICATION')
      execute function extensions.pgwarden_publication_grants_end();
    perform pg_temp.twin_note('event_trigger', 'pgwarden_publication_grants');
  end if;
  -- supautils is a hook in the server, so it acts in replica mode too: so do these.
  perform pg_temp.twin_enable_always(evtname)
  from pg_catalog.pg_event_trigger
  where evtname in ('pgwarden_publication_grants_start', 'pgwarden_publication_grants_end');
end
$twin$;

do $twin$
begin
  if pg_temp.twin_is_new('extensions.pgwarden_publication_grants_end()') then
    revoke all on function extensions.pgwarden_publication_grants_end() from public;
  end if;
end
$twin$;
