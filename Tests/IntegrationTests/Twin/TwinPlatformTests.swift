import Testing
import WardenKit
import TestSupport

/// What else a new Supabase project has, each fact with its source
/// (docs/supabase-twin.md, "A new project's extensions and schemas").
@Suite struct TwinPlatformTests {
    private func project() throws -> (admin: Connection, project: Connection) {
        let (admin, project) = try TestCluster.newTwinDatabase("platform")
        return (try Connection(admin), try Connection(project))
    }

    /// PG migrations/db/init-scripts: pg_stat_statements is created in `extensions`.
    @Test func pgStatStatementsIsInstalledInExtensions() throws {
        let (_, project) = try project()
        #expect(try project.query(
            "select extnamespace::regnamespace::text from pg_extension where extname = 'pg_stat_statements'").scalar == "extensions")
    }

    /// supabase/vault 0.3 API; grants from Supabase's after-create script
    /// (PG ansible/files/postgresql_extension_custom_scripts/supabase_vault/after-create.sql):
    /// postgres and service_role may create, update and read secrets, anon and
    /// authenticated may not touch them.
    @Test func vaultHasSupabasesAPIAndGrants() throws {
        let (admin, project) = try project()
        let id = try #require(try project.query("select vault.create_secret('s3cr3t', 'stripe_key', 'the key')::text").scalar)
        #expect(try project.query("select decrypted_secret from vault.decrypted_secrets where name = 'stripe_key'").scalar == "s3cr3t")
        _ = try project.query("select vault.update_secret(\(id)::uuid, 'n3w')")
        #expect(try project.query("select decrypted_secret from vault.decrypted_secrets where id = \(id)::uuid").scalar == "n3w")
        #expect(try admin.query("select obj_description('vault.secrets'::regclass)").scalar?.contains("does not encrypt") == true)
        for role in ["anon", "authenticated", "service_role"] {
            for relation in ["vault.secrets", "vault.decrypted_secrets"] {
                #expect(try admin.query("select has_table_privilege(\(role), \(relation), 'select')::text").scalar
                    == (role == "service_role" ? "true" : "false"))
            }
        }
        #expect(throws: PGError.self) { try project.query("insert into vault.secrets (secret) values ('x')") }
        #expect(try project.query("select count(*)::text from vault.secrets").scalar == "1")
    }

    /// pg_graphql's schema exists (owner supabase_admin, usage for the API roles).
    @Test func graphqlSchemasExist() throws {
        let (admin, _) = try project()
        #expect(try admin.query(
            "select string_agg(nspname || ':' || nspowner::regrole::text, ',' order by nspname) from pg_namespace where nspname like 'graphql%'"
        ).scalar == "graphql:supabase_admin,graphql_public:supabase_admin")
        #expect(try admin.query("select has_schema_privilege('anon', 'graphql', 'usage')::text").scalar == "true")
    }

    /// PG migrations/20240822021428_enable_webhooks_by_default.sql: a dashboard webhook
    /// (trigger calling supabase_functions.http_request) posts the row through pg_net
    /// and logs the call in supabase_functions.hooks. Locally pg_net is the stand-in:
    /// the request is recorded in net.http_request_queue, never sent.
    @Test func aDatabaseWebhookIsRecordedNotSent() throws {
        let (admin, project) = try project()
        try project.execute(
            """
            create table public.orders (id int primary key, total int);
            create trigger orders_webhook after insert on public.orders for each row
              execute function supabase_functions.http_request(
                'https://example.test/hook', 'POST', '{"Content-Type":"application/json","X-Key":"k"}', '{}', '1000');
            insert into public.orders values (7, 42);
            """)
        let request = try admin.query(
            """
            select method, url, headers->>'X-Key', convert_from(body, 'UTF8')::jsonb #>> '{record,total}', \
            convert_from(body, 'UTF8')::jsonb ->> 'type' from net.http_request_queue
            """).rows
        #expect(request.count == 1)
        #expect(request.first == ["POST", "https://example.test/hook", "k", "42", "INSERT"])
        #expect(try admin.query("select hook_name from supabase_functions.hooks").scalar == "orders_webhook")
        #expect(try project.query("select count(*)::text from net.http_request_queue").scalar == "1")
    }

    /// The stand-in has no responses, and says so rather than answering wrongly.
    @Test func pgNetStandInRefusesToInventAResponse() throws {
        let (_, project) = try project()
        let id = try #require(try project.query("select net.http_get('https://example.test/a', '{\"q\":\"1\"}')::text").scalar)
        #expect(try project.query("select url from net.http_request_queue where id = \(id)::bigint").scalar == "https://example.test/a?q=1")
        let error = try #require(throws: PGError.self) { try project.query("select net._await_response(\(id)::bigint)") }
        #expect(error.message.contains("local stand-in"))
    }

    /// pg_net (0.12 onwards, as Supabase ships it; supabase/pg_net sql/pg_net.sql)
    /// grants every privilege on its tables to PUBLIC: postgres may clean old responses
    /// and requests, and the API roles hold the same.
    @Test func postgresMayCleanPgNetsTables() throws {
        let (_, project) = try project()
        _ = try project.query("select net.http_get('https://example.test/old')")
        _ = try project.query("delete from net._http_response where created < now() - interval '1 day'")
        #expect(try project.query("with gone as (delete from net.http_request_queue returning id) select count(*)::text from gone").scalar == "1")
        #expect(try project.query("""
            select string_agg(r || ':' || has_table_privilege(r, 'net._http_response', 'select, delete')::text, ',' order by r)
            from unnest(array['anon', 'authenticated', 'service_role']) r
            """).scalar == "anon:true,authenticated:true,service_role:true")
    }

    /// supautils' privileged_role_allowed_configs (PG ansible/files/postgresql_config/
    /// conf.d/supautils.conf, commit 6124db1) lets postgres set session_replication_role
    /// (a migration's `set session_replication_role = replica`), for the session or the
    /// transaction, and log_statement, wal_compression and pg_stat_statements.*;
    /// log_parser_stats is not on that list and stays refused.
    @Test func postgresMaySetTheParametersSupautilsAllows() throws {
        let (_, project) = try project()
        _ = try project.query("set session_replication_role = replica")
        #expect(try project.query("show session_replication_role").scalar == "replica")
        _ = try project.query("reset session_replication_role")
        try project.execute("begin")
        _ = try project.query("set local session_replication_role = replica")
        #expect(try project.query("show session_replication_role").scalar == "replica")
        try project.execute("commit")
        #expect(try project.query("show session_replication_role").scalar == "origin")
        _ = try project.query("set track_io_timing = on")
        _ = try project.query("set log_statement = 'all'")
        _ = try project.query("set wal_compression = on")
        _ = try project.query("set pg_stat_statements.track = 'all'")
        let refused = try #require(throws: PGError.self) { try project.query("set log_parser_stats = on") }
        #expect(refused.sqlState == .insufficientPrivilege)
    }

    /// Supabase's postgresql.conf (PG ansible/files/postgresql_config/postgresql.conf.j2,
    /// commit 7db7e1a): wal_level logical, 10 WAL senders, 5 replication slots, so a
    /// migration adding a table to the supabase_realtime publication gets no warning.
    @Test func theServerWritesLogicalWALAsSupabaseDoes() throws {
        let (admin, _) = try project()
        #expect(try admin.query("select current_setting('wal_level') || ' ' || current_setting('max_wal_senders') || ' ' || current_setting('max_replication_slots')").scalar
                == "logical 10 5")
    }

    /// supautils is a hook in the server, not an event trigger: in replica mode (a dump's
    /// `set session_replication_role = replica`, then its storage policies) postgres still
    /// creates a policy on storage.objects, and a privileged extension still gets its
    /// after-create script. The twin's event triggers fire always.
    @Test func thePolicyGrantsAndExtensionScriptsHoldInReplicaMode() throws {
        let (_, project) = try project()
        try project.execute("begin")
        _ = try project.query("set local session_replication_role = replica")
        _ = try project.query("create policy replica_mode on storage.objects for select to authenticated using (true)")
        #expect(try project.query("select count(*)::text from pg_policies where policyname = 'replica_mode'").scalar == "1")
        try project.execute("rollback")
        let disabled = try project.query("""
            select coalesce(string_agg(evtname, ', ' order by evtname), '') from pg_event_trigger
            where evtname like 'pgwarden%' and evtenabled <> 'A'
            """).scalar
        #expect(disabled == "")
    }

    /// Supabase docs (api/aggregate-functions; PostgREST v12 in-database configuration):
    /// postgres runs `alter role authenticator set pgrst.* ...; notify pgrst, 'reload config'`.
    /// Role settings are cluster-wide: the change is made and read in one transaction
    /// and rolled back, so no other test sees it.
    @Test func postgresMaySetPostgrestSettingsAndNotify() throws {
        let (_, project) = try project()
        try project.execute("begin")
        for role in ["authenticator", "anon", "authenticated", "service_role"] {
            _ = try project.query("alter role \(identifier: role) set pgrst.db_aggregates_enabled to 'true'")
            _ = try project.query("alter role \(identifier: role) set pgrst.db_pre_request to 'public.check_request'")
        }
        _ = try project.query("notify pgrst, 'reload config'")
        let settings = try project.query(
            "select array_to_string(setconfig, ';') from pg_db_role_setting where setdatabase = 0 and setrole = 'service_role'::regrole"
        ).scalar ?? ""
        try project.execute("rollback")
        #expect(settings.contains("pgrst.db_aggregates_enabled=true") && settings.contains("pgrst.db_pre_request=public.check_request"))
        // Only PostgREST's own settings: another placeholder stays refused.
        #expect(throws: PGError.self) { try project.query("alter role authenticator set pgwarden_test.anything to 'x'") }
    }
}
