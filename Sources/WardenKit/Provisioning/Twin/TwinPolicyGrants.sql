-- pgwarden twin, step 5: what Supabase's supautils extension does for policies.
-- On Supabase, postgres owns neither auth's nor storage's tables, yet may create,
-- alter and drop policies on some of them: supautils.policy_grants lets it
-- (supabase/postgres ansible/files/postgresql_config/conf.d/supautils.conf, the same
-- 24 tables as its drop_trigger_grants; docs/supabase-twin.md). Plain
-- PostgreSQL has no such setting, so the twin does the same with event triggers: for
-- a policy command run by a postgres session, postgres is a superuser for that one
-- command (the role change is part of the command's transaction), and the command
-- is refused, as PostgreSQL would, when its table is neither postgres's nor listed.
-- Everything else on those tables (alter table, ...) stays refused; DROP TRIGGER has
-- its own stand-in (TwinDropTriggerGrants.sql).

do $twin$
begin
  -- Where supautils itself runs (a Supabase server), it is the one that decides.
  if current_setting('supautils.privileged_role', true) is not null then
    return;
  end if;
  if to_regprocedure('extensions.pgwarden_policy_grants_start()') is null then
    create function extensions.pgwarden_policy_grants_start() returns event_trigger
      language plpgsql security definer set search_path = ''
    as $fn$
    begin
      if session_user = 'postgres' and not (select rolsuper from pg_catalog.pg_roles where rolname = 'postgres') then
        -- Roles are shared by every database of the server: one such command at a
        -- time in the whole cluster (the lock lasts until the transaction ends).
        lock table pg_catalog.pg_authid in share row exclusive mode;
        alter role postgres superuser;
        perform pg_catalog.set_config('pgwarden.policy_grant_active', 'on', true);
      end if;
    end
    $fn$;
    perform pg_temp.twin_note('function', 'extensions.pgwarden_policy_grants_start()');
  end if;

  if to_regprocedure('extensions.pgwarden_policy_grants_end()') is null then
    -- Runs at ddl_command_end and sql_drop: ends the elevation and checks the tables.
    create function extensions.pgwarden_policy_grants_end() returns event_trigger
      language plpgsql security definer set search_path = ''
    as $fn$
    declare
      target regclass;
      inside_extension boolean := false;
    begin
      if coalesce(current_setting('pgwarden.policy_grant_active', true), '') <> 'on' then
        return;
      end if;
      if tg_event = 'sql_drop' then
        select pg_catalog.to_regclass(quote_ident(o.address_names[1]) || '.' || quote_ident(o.address_names[2]))
        into target from pg_catalog.pg_event_trigger_dropped_objects() o where o.object_type = 'policy' limit 1;
      else
        -- A policy made by an extension's script (pg_cron's on cron.job, when
        -- postgres creates the extension) is the extension's business: not checked.
        select p.polrelid::regclass, c.in_extension into target, inside_extension
        from pg_catalog.pg_event_trigger_ddl_commands() c join pg_catalog.pg_policy p on p.oid = c.objid
        where c.object_type = 'policy' limit 1;
      end if;
      -- The command itself is done (a DROP POLICY's sql_drop comes before its end):
      -- the lift ends before the check, since a superuser has every role and
      -- pg_has_role would answer true for any owner.
      alter role postgres nosuperuser;
      perform pg_catalog.set_config('pgwarden.policy_grant_active', 'off', true);
      if target is not null and not inside_extension
         and target::text not in ('auth.audit_log_entries', 'auth.flow_state', 'auth.identities', 'auth.instances',
                                  'auth.mfa_amr_claims', 'auth.mfa_challenges', 'auth.mfa_factors', 'auth.oauth_clients',
                                  'auth.one_time_tokens', 'auth.refresh_tokens', 'auth.saml_providers',
                                  'auth.saml_relay_states', 'auth.sessions', 'auth.sso_domains', 'auth.sso_providers',
                                  'auth.users', 'realtime.messages', 'realtime.subscription', 'storage.buckets',
                                  'storage.buckets_analytics', 'storage.objects', 'storage.prefixes',
                                  'storage.s3_multipart_uploads', 'storage.s3_multipart_uploads_parts')
         and not pg_catalog.pg_has_role('postgres', (select relowner from pg_catalog.pg_class where oid = target), 'usage')
      then
        raise exception 'must be owner of table %', target using errcode = '42501';
      end if;
    end
    $fn$;
    perform pg_temp.twin_note('function', 'extensions.pgwarden_policy_grants_end()');
  end if;

  if not exists (select 1 from pg_catalog.pg_event_trigger where evtname = 'pgwarden_policy_grants_start') then
    create event trigger pgwarden_policy_grants_start on ddl_command_start
      when tag in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY')
      execute function extensions.pgwarden_policy_grants_start();
    create event trigger pgwarden_policy_grants_end on ddl_command_end
      when tag in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY')
      execute function extensions.pgwarden_policy_grants_end();
    create event trigger pgwarden_policy_grants_drop on sql_drop
      when tag in ('DROP POLICY')
      execute function extensions.pgwarden_policy_grants_end();
    perform pg_temp.twin_note('event_trigger', 'pgwarden_policy_grants');
  end if;
  -- supautils is a hook in the server, not a trigger, so it works whatever
  -- session_replication_role is (postgres may set it to replica, as pg_dump's and
  -- supabase db dump's scripts do): these fire in replica mode too.
  perform pg_temp.twin_enable_always(evtname)
  from pg_catalog.pg_event_trigger
  where evtname in ('pgwarden_policy_grants_start', 'pgwarden_policy_grants_end', 'pgwarden_policy_grants_drop');
end
$twin$;

do $twin$
begin
  if pg_temp.twin_is_new('extensions.pgwarden_policy_grants_start()') then
    revoke all on function extensions.pgwarden_policy_grants_start(), extensions.pgwarden_policy_grants_end()
      from public;
  end if;
end
$twin$;
