import Foundation
import Testing
import WardenKit
import TestSupport

/// supautils' `drop_trigger_grants` on the twin (docs/supabase-twin.md, "Triggers on
/// tables postgres does not own"): postgres may drop triggers on the platform tables
/// Supabase lists for it, though it owns none of them; nothing else is lifted, and no
/// other role gains anything.
@Suite struct TwinDropTriggerGrantTests {
    /// Runs `sql` as postgres (a new session) and returns the server's error, if any.
    private func asPostgres(_ sql: String, on project: ConnectionSettings) throws -> PGError? {
        let connection = try Connection(project)
        do {
            try connection.execute(unsafeScript: sql)
            return nil
        } catch let error as PGError {
            return error
        }
    }

    private func postgresIsSuperuser(_ settings: ConnectionSettings) throws -> String? {
        try Connection(settings).query("select rolsuper::text from pg_roles where rolname = 'postgres'").scalar
    }

    private static let signupFunction = """
        create function public.on_signup() returns trigger language plpgsql security definer set search_path = ''
        as $$ begin return new; end $$;
        """

    /// What real projects do (a sign-up trigger re-created by a later migration), on
    /// listed tables of auth and storage; `drop trigger if exists` of a trigger that is
    /// already gone passes too.
    @Test(arguments: ["auth.users", "auth.identities", "storage.objects"])
    func postgresDropsAndRecreatesATriggerOnAListedTable(_ table: String) throws {
        let (admin, project) = try TestCluster.newTwinDatabase("dtg")
        let error = try asPostgres(
            """
            \(Self.signupFunction)
            create trigger on_created after insert on \(table) for each row execute function public.on_signup();
            drop trigger if exists on_created on \(table);
            create trigger on_created after insert on \(table) for each row execute function public.on_signup();
            drop trigger on_created on \(table);
            drop trigger if exists on_created on \(table);
            create trigger on_created after insert on \(table) for each row execute function public.on_signup();
            """, on: project)
        #expect(error == nil, "\(error?.message ?? "")")
        #expect(try Connection(admin).query(
            "select count(*)::text from pg_trigger where tgrelid = \(table)::regclass and tgname = 'on_created'").scalar == "1")
        #expect(try postgresIsSuperuser(admin) == "false")
    }

    /// A dump sets `session_replication_role = replica` first: supautils is a hook, so
    /// the drop still works there, and so it does on the twin.
    @Test func theDropWorksInReplicaMode() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("dtgrep")
        let error = try asPostgres(
            """
            \(Self.signupFunction)
            create trigger on_created after insert on auth.users for each row execute function public.on_signup();
            begin;
            set local session_replication_role = replica;
            drop trigger on_created on auth.users;
            commit;
            """, on: project)
        #expect(error == nil, "\(error?.message ?? "")")
        #expect(try Connection(admin).query("select count(*)::text from pg_trigger where tgname = 'on_created'").scalar == "0")
        #expect(try postgresIsSuperuser(admin) == "false")
    }

    /// Only DROP TRIGGER, and only on the listed tables: the rest stays refused with
    /// PostgreSQL's own SQLSTATE, and postgres is no superuser afterwards. The
    /// superuser puts triggers on tables postgres neither owns nor finds on the list.
    @Test(arguments: [
        ("drop auth.users", "drop table auth.users"),
        ("alter auth.users", "alter table auth.users add column nickname text"),
        ("disable a trigger on auth.users", "alter table auth.users disable trigger on_created"),
        ("drop a trigger on auth.schema_migrations (not listed)", "drop trigger kept on auth.schema_migrations"),
        ("drop a trigger on storage.migrations (not listed)", "drop trigger kept on storage.migrations"),
        ("drop a trigger on a public table of supabase_admin", "drop trigger kept on public.admin_notes"),
        ("drop if exists a trigger on a public table of supabase_admin", "drop trigger if exists kept on public.admin_notes"),
    ])
    func everythingElseStaysRefused(_ action: String, _ sql: String) throws {
        let (admin, project) = try TestCluster.newTwinDatabase("dtgno")
        try Connection(admin).execute(unsafeScript:
            """
            create function public.admin_noop() returns trigger language plpgsql as $$ begin return new; end $$;
            create table public.admin_notes (id int);
            create trigger kept after insert on public.admin_notes for each row execute function public.admin_noop();
            create trigger kept after insert on auth.schema_migrations for each row execute function public.admin_noop();
            create trigger kept after insert on storage.migrations for each row execute function public.admin_noop();
            """)
        #expect(try asPostgres(
            """
            \(Self.signupFunction)
            create trigger on_created after insert on auth.users for each row execute function public.on_signup();
            """, on: project) == nil)
        let error = try asPostgres(sql, on: project)
        #expect(error?.sqlState == .insufficientPrivilege, "\(action): \(error?.message ?? "succeeded")")
        #expect(try Connection(admin).query("select count(*)::text from pg_trigger where tgname in ('kept', 'on_created')").scalar == "4")
        #expect(try postgresIsSuperuser(admin) == "false")
    }

    /// The grant is postgres's alone: in a postgres session, the API roles and a role
    /// the project made may not drop postgres's trigger on auth.users.
    @Test(arguments: ["anon", "authenticated", "a role of the project"])
    func otherRolesMayNotDropTriggersOnAuthUsers(_ which: String) throws {
        let (admin, project) = try TestCluster.newTwinDatabase("dtgrole")
        // Roles belong to the whole server, which other tests share: a name of its own.
        let made = "app_mover_\(UUID().uuidString.prefix(8).lowercased())"
        let role = which == "a role of the project" ? made : which
        defer { _ = try? Connection(admin).execute("drop role if exists \(identifier: made)") }
        #expect(try asPostgres(
            """
            \(Self.signupFunction)
            create trigger on_created after insert on auth.users for each row execute function public.on_signup();
            create role \(made);
            grant \(made) to postgres;
            """, on: project) == nil)
        let error = try asPostgres(
            """
            begin;
            set local role \(role);
            drop trigger on_created on auth.users;
            commit;
            """, on: project)
        #expect(error?.sqlState == .insufficientPrivilege, "\(role): \(error?.message ?? "succeeded")")
        #expect(try Connection(admin).query("select count(*)::text from pg_trigger where tgname = 'on_created'").scalar == "1")
        #expect(try postgresIsSuperuser(admin) == "false")
    }

    /// A Supabase CLI project whose second migration re-creates the sign-up trigger
    /// the first made (as tutur3u/platform's do) runs through `pgwarden dev`.
    @Test func devAppliesAMigrationThatRecreatesTheSignupTrigger() throws {
        let root = NSTemporaryDirectory() + "pgwarden-dtg-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let migrations = "\(root)/supabase/migrations"
        try FileManager.default.createDirectory(atPath: migrations, withIntermediateDirectories: true)
        try Data(
            """
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade);
            alter table public.profiles enable row level security;
            \(Self.signupFunction)
            revoke execute on function public.on_signup() from public, anon, authenticated;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.on_signup();

            """.utf8).write(to: URL(fileURLWithPath: "\(migrations)/20250301000000_profiles.sql"))
        try Data(
            """
            drop trigger if exists on_auth_user_created on auth.users;
            create trigger on_auth_user_created after insert or update on auth.users for each row execute function public.on_signup();

            """.utf8).write(to: URL(fileURLWithPath: "\(migrations)/20250302000000_signup_on_update.sql"))
        let dev = try PgwardenCLI.run(["dev"], directory: root)
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.standardOutput.contains("2 migrations: 2 applied"), "\(dev.all)")
    }
}
