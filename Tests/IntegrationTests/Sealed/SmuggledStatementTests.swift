import Foundation
import Testing
import WardenKit
import TestSupport

/// Issue 15: a text the splitter took for one statement can never carry a COMMIT or a
/// second statement past the seal, in `test`, `up` or `seed`; and a valid BEGIN ATOMIC
/// body is applied whole. Through the real executable, with the database's digest
/// (every table's rows, roles, grants, policies) compared before and after.
@Suite struct SmuggledStatementTests {
    /// The trick of issue 15: BEGIN as a name, then a COMMIT and a DELETE.
    static let smuggler = "create function pg_temp.f(begin int) returns int language sql return begin;\ncommit;\ndelete from public.saved"

    private func temporaryFile(_ name: String, _ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func aCommitBehindBeginAsANameInThePlanIsRefusedAndNothingChanges() throws {
        let connection = try ElectricRide.database()
        let cluster = try TestCluster.cluster
        let url = cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: cluster.projectUser)
        let before = try DatabaseDigest.ofDatabase(connection)
        #expect(try connection.query("select count(*) from public.saved").scalar == "7")
        let setup = "  - |\n" + Self.smuggler.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n"
        let text = try String(contentsOfFile: ElectricRide.planPath, encoding: .utf8)
            .replacingOccurrences(of: "\n\nrelations:\n", with: "\n" + setup + "\nrelations:\n")
        let plan = try temporaryFile("plan.yml", text)
        defer { try? FileManager.default.removeItem(at: plan) }
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--plan", plan.path], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 65, "\(result.all)")
        #expect(result.standardError.contains("'commit' (COMMIT) is not allowed here"), "\(result.all)")
        #expect(try DatabaseDigest.ofDatabase(connection) == before)
        #expect(try connection.query("select count(*) from public.saved").scalar == "7")
    }

    @Test func aCommitBehindBeginAsANameInAMigrationIsRefusedBeforeAnythingRuns() throws {
        let database = try TestDatabase("smuggle")
        try database.connection.execute("create table public.saved (id int); insert into public.saved values (1), (2)")
        let folder = try MigrationFolder([
            "1_first.sql": "create table public.kept (id int);\n" + Self.smuggler + ";\ncreate table public.after (id int);\n"
        ])
        let result = try PgwardenCLI.run(
            ["up", "--database-url", try database.url, "--migrations", folder.path], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 65, "\(result.all)")
        #expect(result.standardError.contains("1_first.sql:3"), "\(result.all)")
        #expect(try database.scalar("select count(*) from public.saved") == "2")
        #expect(try !database.exists("public.kept"))
        #expect(try (database.historyVersions() ?? []).isEmpty)
    }

    @Test func aCommitBehindBeginAsANameInASeedIsRefusedAndNoRowStays() throws {
        let database = try TestDatabase("smuggleseed")
        try database.connection.execute("create table public.saved (id int); insert into public.saved values (1), (2)")
        let folder = try MigrationFolder([
            "01_seed.sql": "insert into public.saved values (3);\n" + Self.smuggler + ";\n"
        ])
        let before = try DatabaseDigest.ofDatabase(database.connection)
        let result = try PgwardenCLI.run(
            ["seed", "--database-url", try database.url, "--seeds", folder.path], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 65, "\(result.all)")
        #expect(result.standardError.contains("01_seed.sql:3: `COMMIT`: a COMMIT without a BEGIN before it"), "\(result.all)")
        #expect(try DatabaseDigest.ofDatabase(database.connection) == before)
    }

    @Test func aBeginAtomicBodyWithCaseInParenthesesApplies() throws {
        let database = try TestDatabase("atomic")
        let folder = try MigrationFolder([
            "1_atomic.sql": """
                create function public.sign(x int) returns int language sql
                begin atomic
                  select (case when x > 0 then 1 when x < 0 then (case when x < -9 then -10 else -1 end) else 0 end);
                end;
                create table public.after_function (id int);
                """
        ])
        let result = try PgwardenCLI.run(
            ["up", "--database-url", try database.url, "--migrations", folder.path], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 0, "\(result.all)")
        #expect(try database.scalar("select public.sign(-20)::text || public.sign(5)::text") == "-101")
        #expect(try database.exists("public.after_function"))
        #expect(try database.state("1") == "applied")
    }

    /// Issue 16 item 4: what the author's COMMIT ends, ends (psql and the Supabase CLI agree).
    @Test func anAuthorsCommitEndsItsLocalSettingsAndRole() throws {
        let database = try TestDatabase("authorcommit")
        try database.connection.execute("create role pgwarden_reader nologin")
        let folder = try MigrationFolder([
            "1_wrapped.sql": """
                begin;
                set local search_path = nowhere;
                select set_config('app.tenant', 'x', true);
                set local role pgwarden_reader;
                commit;
                create table made_after (id int, tenant text default current_setting('app.tenant', true), who text default current_user);
                insert into made_after (id) values (1);
                """
        ])
        let result = try PgwardenCLI.run(
            ["up", "--database-url", try database.url, "--migrations", folder.path], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 0, "\(result.all)")
        #expect(try database.exists("public.made_after"))
        let row = try database.connection.query("select coalesce(tenant, '(null)'), who from public.made_after").rows.first
        #expect(row?[0] == "" || row?[0] == "(null)")
        #expect(row?[1] != "pgwarden_reader")
    }
}
