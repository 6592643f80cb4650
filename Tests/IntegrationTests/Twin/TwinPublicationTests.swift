import Foundation
import Testing
import WardenKit
import TestSupport

/// supautils' publications on the twin (docs/supabase-twin.md, "Publications"):
/// postgres may create a publication FOR ALL TABLES or FOR TABLES IN SCHEMA, which
/// PostgreSQL 15 keeps for superusers, and owns it; the lift lasts one command, and
/// no other role gains anything.
@Suite struct TwinPublicationTests {
    private func postgresIsSuperuser(_ admin: ConnectionSettings) throws -> String? {
        try Connection(admin).query("select rolsuper::text from pg_roles where rolname = 'postgres'").scalar
    }

    /// How projects rebuild Realtime's publication, as a migration.
    @Test func postgresRebuildsRealtimesPublicationForAllTables() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("pubrebuild")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            begin;
              drop publication if exists supabase_realtime;
              create publication supabase_realtime for all tables;
            commit;
            create publication app_changes for tables in schema public;
            """.write(to: folder.appendingPathComponent("20250101000000_realtime.sql"), atomically: true, encoding: .utf8)
        let run = try Migrator.open(folder: folder.path, settings: project).up()
        #expect(run.steps.count == 1)
        #expect(try Connection(admin).query("""
            select string_agg(pubname || ':' || pubowner::regrole::text || ':' || puballtables::text, ',' order by pubname)
            from pg_publication
            """).scalar == "app_changes:postgres:false,supabase_realtime:postgres:true")
        #expect(try postgresIsSuperuser(admin) == "false")
        // Its owner drops it again, as on Supabase.
        try Connection(project).execute("drop publication app_changes")
    }

    /// A publication that fails (a table that does not exist) leaves postgres as it was.
    @Test func aFailingCreationLeavesNoLift() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("pubfail")
        let connection = try Connection(project)
        #expect(throws: PGError.self) { try connection.execute("create publication broken for table public.no_such_table") }
        #expect(try postgresIsSuperuser(admin) == "false")
        #expect(try Connection(admin).query("select count(*)::text from pg_publication where pubname = 'broken'").scalar == "0")
    }

    /// Any other role, even in a postgres session, stays refused.
    @Test func noOtherRoleGainsIt() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("pubother")
        let connection = try Connection(project)
        try connection.execute("do $$ begin execute format('grant create on database %I to authenticated', current_database()); end $$")
        try connection.execute("set role authenticated")
        #expect { try connection.execute("create publication sneaky for all tables") } throws: { error in
            (error as? PGError)?.sqlState == .insufficientPrivilege
        }
        try connection.execute("reset role")
        #expect(try postgresIsSuperuser(admin) == "false")
    }
}
