-- pgwarden twin, step 5c: what Supabase's supautils extension does for CREATE EVENT
-- TRIGGER. PostgreSQL lets only a superuser create an event trigger; on Supabase,
-- supautils runs `postgres`'s CREATE EVENT TRIGGER as the superuser and makes postgres
-- its owner (Supabase's docs, "Event Triggers": "the postgres user has the ability to
-- create and manage event triggers"; supabase.com/blog/event-triggers-wo-superuser).
-- PostgreSQL fires no event trigger for event-trigger commands, so no stand-in inside
-- the server can see one coming. pgwarden's migration runner does it instead
-- (`EventTriggerLift`): inside the migration's transaction it calls the first function,
-- sends the one CREATE EVENT TRIGGER statement, then calls the second. postgres is a
-- superuser for that statement alone (the role change is part of the transaction: a
-- statement that fails rolls it back with everything else), and owns the trigger, so
-- it may alter and drop it later as on Supabase. The lift shares step 5's setting
-- (`pgwarden.policy_grant_active`), so the second function ends either lift: the
-- publication stand-in (step 5d) ends step 5's with it.
-- Not mirrored: supautils skips a postgres-made event trigger's function for
-- superusers and its reserved roles; here it fires for every role.

do $twin$
begin
  -- Where supautils itself runs (a Supabase server), it is the one that decides.
  if current_setting('supautils.privileged_role', true) is not null then
    return;
  end if;
  if to_regprocedure('extensions.pgwarden_postgres_lift()') is null then
    create function extensions.pgwarden_postgres_lift() returns void
      language plpgsql security definer set search_path = ''
    as $fn$
    begin
      -- Only for a postgres session (the runner's, inside its migration transaction); a
      -- superuser's needs none, and any other role's statement is refused as before.
      if session_user <> 'postgres' or (select rolsuper from pg_catalog.pg_roles where rolname = 'postgres') then
        return;
      end if;
      -- Roles are shared by every database of the server: one lift at a time in the
      -- whole cluster, as step 5's (the lock lasts until the transaction ends).
      lock table pg_catalog.pg_authid in share row exclusive mode;
      alter role postgres superuser;
      perform pg_catalog.set_config('pgwarden.policy_grant_active', 'on', true);
    end
    $fn$;
    perform pg_temp.twin_note('function', 'extensions.pgwarden_postgres_lift()');
  end if;
  if to_regprocedure('extensions.pgwarden_postgres_lift_end()') is null then
    create function extensions.pgwarden_postgres_lift_end() returns void
      language plpgsql security definer set search_path = ''
    as $fn$
    begin
      if coalesce(current_setting('pgwarden.policy_grant_active', true), '') <> 'on' then
        return;
      end if;
      alter role postgres nosuperuser;
      perform pg_catalog.set_config('pgwarden.policy_grant_active', 'off', true);
    end
    $fn$;
    perform pg_temp.twin_note('function', 'extensions.pgwarden_postgres_lift_end()');
  end if;
end
$twin$;

do $twin$
begin
  if pg_temp.twin_is_new('extensions.pgwarden_postgres_lift()') then
    revoke all on function extensions.pgwarden_postgres_lift() from public;
    grant execute on function extensions.pgwarden_postgres_lift() to postgres;
  end if;
  if pg_temp.twin_is_new('extensions.pgwarden_postgres_lift_end()') then
    revoke all on function extensions.pgwarden_postgres_lift_end() from public;
    grant execute on function extensions.pgwarden_postgres_lift_end() to postgres;
  end if;
end
$twin$;
