-- pgwarden twin, step 1: Supabase's roles (cluster-wide), their memberships and
-- settings. Facts and sources: docs/supabase-twin.md, "Roles" and "Role settings".
-- An existing role keeps its attributes: bootstrap never alters a role it did not
-- create (so a server's own superuser `postgres` stays what it is).

do $twin$
declare
  spec record;
begin
  for spec in
    select * from (values
      -- The only superuser. On pgwarden's ephemeral server it is initdb's user.
      ('supabase_admin',             'nologin superuser createdb createrole replication bypassrls'),
      -- The role migrations, seeds and the SQL editor run as: not a superuser.
      ('postgres',                   'login nosuperuser createdb createrole replication bypassrls inherit'),
      ('anon',                       'nologin inherit'),
      ('authenticated',              'nologin inherit'),
      ('service_role',               'nologin inherit bypassrls'),
      ('authenticator',              'login noinherit'),
      ('supabase_auth_admin',        'login noinherit nocreaterole'),
      ('supabase_storage_admin',     'login noinherit createrole'),
      ('dashboard_user',             'nologin createdb createrole replication'),
      ('supabase_replication_admin', 'login replication'),
      ('supabase_read_only_user',    'login bypassrls'),
      -- Owner of Database Webhooks' supabase_functions schema objects
      -- (PG migrations/20240822021428_enable_webhooks_by_default.sql).
      ('supabase_functions_admin',   'login noinherit createrole noreplication'),
      -- Owner of Realtime's objects in schema realtime (supabase/realtime
      -- migrations/20240401105812_create_realtime_admin_and_move_ownership.ex).
      ('supabase_realtime_admin',    'nologin noinherit noreplication')
    ) as wanted(role_name, options)
  loop
    continue when exists (select 1 from pg_catalog.pg_roles where rolname = spec.role_name);
    begin
      execute format('create role %I %s', spec.role_name, spec.options);
      perform pg_temp.twin_note('role', spec.role_name);
    exception when duplicate_object or unique_violation then
      null; -- created at this moment by a bootstrap of another database: fine
    end;
  end loop;
end
$twin$;

-- Memberships (granted role, member), added when missing; never circular.
do $twin$
declare
  pair record;
begin
  for pair in
    select * from (values
      ('anon', 'authenticator'), ('authenticated', 'authenticator'), ('service_role', 'authenticator'),
      ('anon', 'postgres'), ('authenticated', 'postgres'), ('service_role', 'postgres'),
      ('pg_monitor', 'postgres'), ('pg_read_all_data', 'postgres'), ('pg_signal_backend', 'postgres'),
      ('authenticator', 'supabase_storage_admin'), ('postgres', 'authenticator'),
      ('pg_read_all_data', 'supabase_read_only_user'), ('supabase_functions_admin', 'postgres')
    ) as wanted(granted, member)
  loop
    continue when pair.granted = pair.member;
    continue when exists (
      select 1 from pg_catalog.pg_auth_members m
      where m.roleid = (select oid from pg_catalog.pg_roles where rolname = pair.granted)
        and m.member = (select oid from pg_catalog.pg_roles where rolname = pair.member));
    -- A superuser member gains nothing; a member the granted role already contains would loop.
    continue when (select rolsuper from pg_catalog.pg_roles where rolname = pair.member);
    continue when pg_catalog.pg_has_role(pair.granted, pair.member, 'member');
    execute format('grant %I to %I', pair.granted, pair.member);
    perform pg_temp.twin_note('membership', pair.granted || ' to ' || pair.member);
  end loop;
end
$twin$;

-- Role settings (for every database), each added when the role has no value for it.
do $twin$
declare
  setting record;
begin
  for setting in
    select * from (values
      ('anon',                   'statement_timeout', '3s'),
      ('authenticated',          'statement_timeout', '8s'),
      ('authenticator',          'statement_timeout', '8s'),
      ('authenticator',          'lock_timeout', '8s'),
      -- Supabase's init script writes "\$user" for a shell that never sees it, so the
      -- first entry is a schema literally named \$user: effectively public, extensions.
      ('postgres',               'search_path', '"\$user", public, extensions'),
      ('supabase_admin',         'search_path', '"\$user", public, auth, extensions'),
      ('supabase_auth_admin',    'search_path', 'auth'),
      ('supabase_auth_admin',    'idle_in_transaction_session_timeout', '60000'),
      ('supabase_storage_admin', 'search_path', 'storage'),
      ('supabase_functions_admin', 'search_path', 'supabase_functions')
    ) as wanted(role_name, name, value)
  loop
    continue when exists (
      select 1 from pg_catalog.pg_db_role_setting s
      where s.setdatabase = 0
        and s.setrole = (select oid from pg_catalog.pg_roles where rolname = setting.role_name)
        and exists (select 1 from unnest(s.setconfig) c where c like setting.name || '=%'));
    -- search_path takes a list: pass it as written, not as one quoted string.
    if setting.name = 'search_path' then
      execute format('alter role %I set search_path = %s', setting.role_name, setting.value);
    else
      execute format('alter role %I set %s = %L', setting.role_name, setting.name, setting.value);
    end if;
    perform pg_temp.twin_note('setting', setting.role_name || ' ' || setting.name);
  end loop;
end
$twin$;
