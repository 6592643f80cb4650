-- pgwarden twin, step 5b: what Supabase's supautils extension does for DROP TRIGGER.
-- postgres may create a trigger on auth.users (it holds TRIGGER there) but PostgreSQL
-- lets only a table's owner drop one. On Supabase, supautils.drop_trigger_grants lets
-- postgres drop triggers on the platform tables listed for it (supabase/postgres
-- ansible/files/postgresql_config/conf.d/supautils.conf; docs/supabase-twin.md).
-- The twin does the same with event triggers, as step 5 does for policies: for a DROP
-- TRIGGER run by a postgres session, postgres is a superuser for that one command (the
-- role change is part of the command's transaction), and the drop is refused, as
-- PostgreSQL would refuse it, when the trigger's table is neither postgres's nor
-- listed. Nothing else on those tables (alter table, drop table, ...) is lifted.
-- The lift is step 5's own (extensions.pgwarden_policy_grants_start(), which makes
-- postgres a superuser and sets pgwarden.policy_grant_active); the end and its check
-- are this step's: step 5's end function knows nothing of triggers.

do $twin$
begin
  -- Where supautils itself runs (a Supabase server), it is the one that decides.
  if current_setting('supautils.privileged_role', true) is not null then
    return;
  end if;
  if to_regprocedure('extensions.pgwarden_drop_trigger_grants_end()') is null then
    -- Ends the lift at sql_drop, then checks the table of every trigger dropped (a
    -- refusal rolls the drop back); at ddl_command_end when nothing was dropped (a
    -- `drop trigger if exists` that found no trigger).
    create function extensions.pgwarden_drop_trigger_grants_end() returns event_trigger
      language plpgsql security definer set search_path = ''
    as $fn$
    declare
      table_schema text;
      table_name text;
      table_owner oid;
    begin
      if coalesce(current_setting('pgwarden.policy_grant_active', true), '') <> 'on' then
        return;
      end if;
      -- The drop itself is done: the lift ends here, before the check (a superuser
      -- has every role, so pg_has_role would answer true for any owner).
      alter role postgres nosuperuser;
      perform pg_catalog.set_config('pgwarden.policy_grant_active', 'off', true);
      if tg_event = 'ddl_command_end' then
        return;
      end if;
      -- A dropped trigger's address is {schema, table, trigger}.
      for table_schema, table_name, table_owner in
        select n.nspname, c.relname, c.relowner
        from pg_catalog.pg_event_trigger_dropped_objects() o
        join pg_catalog.pg_namespace n on n.nspname = o.address_names[1]
        join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = o.address_names[2]
        where o.object_type = 'trigger'
      loop
        if (table_schema || '.' || table_name)
             not in ('auth.audit_log_entries', 'auth.flow_state', 'auth.identities', 'auth.instances',
                     'auth.mfa_amr_claims', 'auth.mfa_challenges', 'auth.mfa_factors', 'auth.oauth_clients',
                     'auth.one_time_tokens', 'auth.refresh_tokens', 'auth.saml_providers', 'auth.saml_relay_states',
                     'auth.sessions', 'auth.sso_domains', 'auth.sso_providers', 'auth.users',
                     'realtime.messages', 'realtime.subscription',
                     'storage.buckets', 'storage.buckets_analytics', 'storage.objects', 'storage.prefixes',
                     'storage.s3_multipart_uploads', 'storage.s3_multipart_uploads_parts')
           and not pg_catalog.pg_has_role('postgres', table_owner, 'usage')
        then
          raise exception 'must be owner of relation %', table_name using errcode = '42501';
        end if;
      end loop;
    end
    $fn$;
    perform pg_temp.twin_note('function', 'extensions.pgwarden_drop_trigger_grants_end()');
  end if;

  if not exists (select 1 from pg_catalog.pg_event_trigger where evtname = 'pgwarden_drop_trigger_grants_start') then
    create event trigger pgwarden_drop_trigger_grants_start on ddl_command_start
      when tag in ('DROP TRIGGER')
      execute function extensions.pgwarden_policy_grants_start();
    create event trigger pgwarden_drop_trigger_grants_end on ddl_command_end
      when tag in ('DROP TRIGGER')
      execute function extensions.pgwarden_drop_trigger_grants_end();
    create event trigger pgwarden_drop_trigger_grants_drop on sql_drop
      when tag in ('DROP TRIGGER')
      execute function extensions.pgwarden_drop_trigger_grants_end();
    perform pg_temp.twin_note('event_trigger', 'pgwarden_drop_trigger_grants');
  end if;
  -- supautils is a hook in the server, so it acts in replica mode too: so do these.
  perform pg_temp.twin_enable_always(evtname)
  from pg_catalog.pg_event_trigger
  where evtname in ('pgwarden_drop_trigger_grants_start', 'pgwarden_drop_trigger_grants_end',
                    'pgwarden_drop_trigger_grants_drop');
end
$twin$;

do $twin$
begin
  if pg_temp.twin_is_new('extensions.pgwarden_drop_trigger_grants_end()') then
    revoke all on function extensions.pgwarden_drop_trigger_grants_end() from public;
  end if;
end
$twin$;
