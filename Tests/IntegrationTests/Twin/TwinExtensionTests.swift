import Testing
import WardenKit
import TestSupport

/// Supabase lets its non-superuser `postgres` create, alter and drop the extensions of
/// supautils' privileged list (source: supabase/postgres
/// ansible/files/postgresql_config/supautils.conf.j2, `supautils.privileged_extensions`,
/// `supautils.privileged_role = 'postgres'`); the twin's ephemeral server does the
/// same through its private installation tree (docs/supabase-twin.md, "Extensions").
@Suite struct TwinExtensionTests {
    /// The privileged extensions this server can provide, and that a fresh twin has not
    /// installed already.
    private func providable(_ admin: Connection) throws -> [String] {
        try admin.query(
            """
            select name from pg_available_extensions
            where name = any(\("{" + PrivilegedExtensions.names.map { "\"\($0)\"" }.joined(separator: ",") + "}")::text[]) and installed_version is null order by name
            """).rows.compactMap { $0.first ?? nil }
    }

    @Test func postgresMayCreateAlterAndDropEveryPrivilegedExtensionTheServerHas() throws {
        let (adminSettings, projectSettings) = try TestCluster.newTwinDatabase("privext")
        let admin = try Connection(adminSettings)
        let names = try providable(admin)
        // The Debian server here has at least these (postgresql-15, and -pgtap, -hypopg,
        // -plpgsql-check from scripts/test.sh; pg_stat_statements is installed already), and
        // pgwarden's stand-ins.
        for expected in ["moddatetime", "dblink", "pgtap", "hstore", "earthdistance", "hypopg", "plpgsql_check", "http", "pgjwt",
                         "pg_buffercache"] {
            #expect(names.contains(expected), "the server should provide \(expected)")
        }
        let project = try Connection(projectSettings)
        // pg_cron is created only in cron.database_name's database (pgCronWorks... below).
        for name in names where name != "pg_cron" {
            do {
                try project.query("create extension \(identifier: name) with schema extensions cascade")
                try project.query("alter extension \(identifier: name) update")
                let owner = try project.query(
                    "select extowner::regrole::text from pg_extension where extname = \(name)").rows.first?.first ?? nil
                #expect(owner == "postgres", "\(name) is owned by \(owner ?? "nobody")")
                try project.query("drop extension \(identifier: name) cascade")
            } catch {
                Issue.record("postgres could not create, alter and drop \(name): \(error)")
            }
        }
    }

    /// `pageinspect` is on supautils' full list but "omitted because may be unsafe":
    /// postgres may not create it, and the attempt changes nothing.
    @Test func anExtensionOutsideThePrivilegedListStaysSuperuserOnly() throws {
        let (_, projectSettings) = try TestCluster.newTwinDatabase("unpriv")
        let project = try Connection(projectSettings)
        #expect(!PrivilegedExtensions.names.contains("pageinspect"))
        #expect(throws: PGError.self) { try project.query("create extension pageinspect with schema extensions") }
        #expect(try project.query("select count(*) from pg_extension where extname = 'pageinspect'").rows.first?.first == "0")
    }

    /// pg_stat_statements needs `shared_preload_libraries`; on the twin its view is
    /// readable once created, as on a Supabase project.
    @Test func pgStatStatementsIsUsableNotOnlyCreatable() throws {
        let (_, projectSettings) = try TestCluster.newTwinDatabase("pgss")
        let project = try Connection(projectSettings)
        _ = try project.query("create extension if not exists pg_stat_statements with schema extensions")
        let calls = try project.query("select count(*) >= 0 from extensions.pg_stat_statements").rows.first?.first
        #expect(calls == "t" || calls == "true")
    }

    /// The twin preloads what a Supabase project's server preloads (PG
    /// ansible/files/postgresql_config/postgresql.conf.j2) that it can load without
    /// slowing every server start (`SupabasePreloadedLibraries`), in Supabase's order.
    /// So PL/pgSQL's settings exist in every new session, as on Supabase: a role or a
    /// migration may read or set `plpgsql.extra_warnings` before any PL/pgSQL ran (on a
    /// server without the preload, reading it fails with 42704).
    @Test func theTwinPreloadsSupabasesLibrariesThatTheServerHas() throws {
        let (_, projectSettings) = try TestCluster.newTwinDatabase("preload")
        let project = try Connection(projectSettings)
        // The Debian server here has all three (postgresql-15; -cron from scripts/test.sh).
        #expect(try project.query("show shared_preload_libraries").scalar == "pg_stat_statements,plpgsql,pg_cron")
        #expect(try project.query("select current_setting('plpgsql.variable_conflict')").scalar == "error")
        #expect(try project.query("select current_setting('plpgsql.extra_warnings')").scalar == "none")
    }

    /// moddatetime, the most common blocked one in real projects, works as a trigger
    /// created by postgres.
    @Test func moddatetimeWorksAsPostgres() throws {
        let (_, projectSettings) = try TestCluster.newTwinDatabase("moddt")
        let project = try Connection(projectSettings)
        try project.execute(
            """
            create extension moddatetime with schema extensions;
            create table public.note (id int primary key, updated_at timestamptz default 'epoch');
            create trigger touch before update on public.note
              for each row execute procedure extensions.moddatetime(updated_at);
            insert into public.note values (1);
            update public.note set id = 1;
            """)
        #expect(try project.query("select updated_at > 'epoch' from public.note").rows.first?.first == "t")
    }

    /// pg_cron needs `shared_preload_libraries` and runs in one database
    /// (`cron.database_name`, default `postgres`, which is Supabase's and `pgwarden
    /// dev`'s). On a server of its own (the shared one's `postgres` database belongs to
    /// every suite): postgres creates it and schedules a job, as on Supabase.
    /// Needs postgresql-15-cron (installed by scripts/test.sh).
    @Test func pgCronWorksForPostgresInThePostgresDatabase() throws {
        let cluster = try LocalCluster.start()
        defer { cluster.stop() }
        _ = try SupabaseCompat.bootstrap(Connection(cluster.settings()))
        let project = try Connection(cluster.settings(user: cluster.projectUser))
        _ = try project.query("create extension pg_cron with schema extensions")
        _ = try project.query("select cron.schedule('nightly-cleanup', '0 3 * * *', 'select 1')")
        #expect(try project.query("select jobname || ' ' || schedule || ' ' || username from cron.job").scalar
            == "nightly-cleanup 0 3 * * * postgres")
        #expect(try project.query("select cron.unschedule('nightly-cleanup')::text").scalar == "true")
    }

    /// supautils puts pg_cron in pg_catalog whatever schema the statement names, or none
    /// (`supautils.extensions_parameter_overrides = '{"pg_cron":{"schema":"pg_catalog"}}'`,
    /// PG ansible/files/postgresql_config/supautils.conf.j2; supautils
    /// src/extensions_parameter_overrides.c): so on Supabase `create extension pg_cron`
    /// never leaves it in public, and the advisor's extension_in_public never names it.
    /// Its objects stay in schema cron, and it may be dropped and created again.
    @Test func pgCronLandsInPgCatalogWhateverSchemaTheStatementNames() throws {
        let cluster = try LocalCluster.start()
        defer { cluster.stop() }
        _ = try SupabaseCompat.bootstrap(Connection(cluster.settings()))
        let project = try Connection(cluster.settings(user: cluster.projectUser))
        for statement in ["create extension pg_cron", "create extension pg_cron with schema extensions",
                          "create extension if not exists pg_cron schema public"] {
            _ = try project.execute(unsafeStatement: statement)
            #expect(try project.query("select extnamespace::regnamespace::text from pg_extension where extname = 'pg_cron'").scalar
                == "pg_catalog", "\(statement)")
            #expect(try project.query(
                "select count(*)::text from pg_depend where classid = 'pg_extension'::regclass and refclassid = 'pg_namespace'::regclass and objid = (select oid from pg_extension where extname = 'pg_cron')"
            ).scalar == "0", "\(statement)")
            #expect(try project.query("select cron.schedule('nightly', '0 3 * * *', 'select 1') > 0").scalar == "t", "\(statement)")
            _ = try project.query("drop extension pg_cron")
            #expect(try project.query("select count(*)::text from pg_namespace where nspname = 'cron'").scalar == "0", "\(statement)")
        }
    }

    /// The extensions a new project has may be dropped and created again by postgres,
    /// as supautils allows on Supabase.
    @Test func postgresMayDropAndRecreateTheExtensionsANewProjectHas() throws {
        let (_, projectSettings) = try TestCluster.newTwinDatabase("preinst")
        let project = try Connection(projectSettings)
        for name in ["pg_stat_statements", "pg_net"] {
            #expect(try project.query("select extowner::regrole::text from pg_extension where extname = \(name)").scalar == "postgres")
            _ = try project.query("drop extension \(identifier: name) cascade")
            _ = try project.query("create extension \(identifier: name) with schema extensions")
        }
    }

    /// Supabase's after-create scripts (PG ansible/files/postgresql_extension_custom_scripts):
    /// dblink's dblink_connect_u is supabase_admin's alone; pgmq's objects are postgres's.
    @Test func afterCreateScriptsRunAsOnSupabase() throws {
        let (_, projectSettings) = try TestCluster.newTwinDatabase("aftercreate")
        let project = try Connection(projectSettings)
        _ = try project.query("create extension dblink with schema extensions")
        #expect(try project.query(
            "select bool_or(has_function_privilege('postgres', oid, 'execute'))::text from pg_proc where proname = 'dblink_connect_u'"
        ).scalar == "false")
        _ = try project.query("create extension pgmq")
        #expect(try project.query(
            "select string_agg(distinct relowner::regrole::text, ',') from pg_class where relnamespace = 'pgmq'::regnamespace and relkind = 'r'"
        ).scalar == "postgres")
        #expect(try project.query("select proowner::regrole::text from pg_proc where oid = 'pgmq.send(text, jsonb, integer)'::regprocedure")
            .scalar == "postgres")
    }
}
