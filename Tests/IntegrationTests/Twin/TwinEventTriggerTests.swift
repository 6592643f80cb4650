import Foundation
import Testing
import WardenKit
import TestSupport

/// supautils' event triggers on the twin (docs/supabase-twin.md, "Event triggers"):
/// postgres may create an event trigger in a migration, owns it, and may drop it in a
/// later one, as on Supabase; postgres is a superuser for that one statement only, and
/// a migration whose event trigger fails is rolled back whole, lift included.
@Suite struct TwinEventTriggerTests {
    /// Supabase's documented example: row-level security on every new table.
    static let autoRLS = """
        create function public.auto_rls() returns event_trigger language plpgsql as $$
        declare r record;
        begin
          for r in select * from pg_event_trigger_ddl_commands() where command_tag = 'CREATE TABLE' loop
            execute format('alter table %s enable row level security', r.object_identity);
          end loop;
        end $$;
        -- the trigger
        create event trigger auto_rls on ddl_command_end
          when tag in ('CREATE TABLE') execute function public.auto_rls();
        """

    private func folder(_ files: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("evt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, sql) in files { try sql.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder.path
    }

    private func postgresIsSuperuser(_ admin: ConnectionSettings) throws -> String? {
        try Connection(admin).query("select rolsuper::text from pg_roles where rolname = 'postgres'").scalar
    }

    @Test func postgresCreatesAnEventTriggerThatFiresAndDropsItLater() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("evtrig")
        let migrations = try folder([
            "20250101000000_auto_rls.sql": Self.autoRLS,
            "20250102000000_notes.sql": "create table public.notes (id bigint primary key, body text);",
            "20250103000000_no_more.sql": "drop event trigger auto_rls;\ncreate table public.later (id bigint primary key);",
        ])
        defer { try? FileManager.default.removeItem(atPath: migrations) }
        let run = try Migrator.open(folder: migrations, settings: project).up()
        #expect(run.steps.count == 3)
        let connection = try Connection(admin)
        #expect(try connection.query(
            "select string_agg(relname || '=' || relrowsecurity::text, ',' order by relname) from pg_class where relname in ('notes', 'later')"
        ).scalar == "later=false,notes=true")
        #expect(try connection.query("select count(*)::text from pg_event_trigger where evtname = 'auto_rls'").scalar == "0")
        #expect(try postgresIsSuperuser(admin) == "false")
    }

    @Test func theTriggerBelongsToPostgres() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("evtrigowner")
        let migrations = try folder(["20250101000000_auto_rls.sql": Self.autoRLS])
        defer { try? FileManager.default.removeItem(atPath: migrations) }
        _ = try Migrator.open(folder: migrations, settings: project).up()
        #expect(try Connection(admin).query(
            "select evtowner::regrole::text from pg_event_trigger where evtname = 'auto_rls'").scalar == "postgres")
        #expect(try postgresIsSuperuser(admin) == "false")
    }

    /// PostgREST's schema cache lists an `event_trigger` function (it leaves out only
    /// `trigger` ones), but every call fails with 0A000, "trigger functions can only be
    /// called as triggers": no request can use one, so the draft and the matrix leave it
    /// out, as they leave out trigger functions (round thirty-seven; listed before).
    @Test func anEventTriggersFunctionIsNoRequestsToCall() throws {
        let (_, project) = try TestCluster.newTwinDatabase("evtrigfn")
        let migrations = try folder(["20250101000000_auto_rls.sql": Self.autoRLS + """

            create table public.notes (id bigint primary key, body text);
            create function public.note_count() returns bigint language sql stable as $$ select count(*) from public.notes $$;
            """])
        defer { try? FileManager.default.removeItem(atPath: migrations) }
        _ = try Migrator.open(folder: migrations, settings: project).up()
        let connection = try Connection(project)
        let call = try #require(throws: PGError.self) { try connection.query("select public.auto_rls()") }
        #expect(call.sqlState == .featureNotSupported)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.yaml.contains("public.note_count()"))
        #expect(!draft.yaml.contains("auto_rls"), "\(draft.yaml)")
    }

    /// Wrapped to be run again (a psychology clinic's first migration, round thirty-six);
    /// a block doing anything more is not lifted, and PostgreSQL refuses it.
    @Test func aGuardedBlockCreatingOneEventTriggerRunsAsABareOne() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("evtrigblock")
        let function = String(Self.autoRLS.prefix { $0 != "-" })
        let migrations = try folder([
            "20250101000000_auto_rls.sql": function + """
                do $$ begin
                  create event trigger auto_rls on ddl_command_end
                    when tag in ('CREATE TABLE') execute function public.auto_rls();
                exception when duplicate_object then null; end $$;
                create table public.notes (id bigint primary key);
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: migrations) }
        _ = try Migrator.open(folder: migrations, settings: project).up()
        let connection = try Connection(admin)
        #expect(try connection.query(
            "select evtowner::regrole::text from pg_event_trigger where evtname = 'auto_rls'").scalar == "postgres")
        #expect(try connection.query("select relrowsecurity::text from pg_class where oid = 'public.notes'::regclass").scalar == "true")
        #expect(try postgresIsSuperuser(admin) == "false")

        let (otherAdmin, otherProject) = try TestCluster.newTwinDatabase("evtrigblockmore")
        let more = try folder([
            "20250101000000_more.sql": function + """
                do $$ begin
                  create event trigger auto_rls on ddl_command_end execute function public.auto_rls();
                  alter role authenticated bypassrls;
                end $$;
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: more) }
        #expect {
            _ = try Migrator.open(folder: more, settings: otherProject).up()
        } throws: { error in
            "\(error)".contains("permission denied to create event trigger")
        }
        #expect(try Connection(otherAdmin).query(
            "select rolbypassrls::text from pg_roles where rolname = 'authenticated'").scalar == "false")
        #expect(try postgresIsSuperuser(otherAdmin) == "false")
    }

    /// An event trigger naming a function that does not exist: the migration fails on
    /// its own line, nothing of it stays, and postgres is no superuser.
    @Test func aFailingEventTriggerRollsBackTheMigrationAndTheLift() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("evtrigfail")
        let migrations = try folder([
            "20250101000000_broken.sql": """
                create table public.kept_out (id bigint primary key);
                create event trigger broken on ddl_command_end execute function public.no_such_function();
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: migrations) }
        #expect {
            _ = try Migrator.open(folder: migrations, settings: project).up()
        } throws: { error in
            "\(error)".contains("no_such_function") && "\(error)".contains("20250101000000_broken.sql:2")
        }
        let connection = try Connection(admin)
        #expect(try connection.query("select (to_regclass('public.kept_out') is null)::text").scalar == "true")
        #expect(try connection.query("select count(*)::text from pg_event_trigger where evtname = 'broken'").scalar == "0")
        #expect(try postgresIsSuperuser(admin) == "false")
    }

    /// Outside a migration, the lift is nothing a session of another role may use.
    @Test func noOtherRoleMayLift() throws {
        let (admin, _) = try TestCluster.newTwinDatabase("evtriglift")
        let connection = try Connection(admin)
        try connection.execute("set role authenticated")
        #expect(throws: PGError.self) { try connection.query("select extensions.pgwarden_postgres_lift()") }
        try connection.execute("reset role")
        #expect(try postgresIsSuperuser(admin) == "false")
    }
}
