import Foundation
import Testing
import WardenKit
import TestSupport

/// The sealed run, seeds, secrets and `--output` as a user meets them: through the
/// real executable, against a real server.
@Suite struct SealedCommandLineTests {
    private let root = PackagePaths.root.path

    private func electricRide() throws -> (url: String, connection: Connection) {
        let connection = try ElectricRide.database()
        let cluster = try TestCluster.cluster
        let url = cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: cluster.projectUser)
        return (url, connection)
    }

    private func temporaryFile(_ name: String, _ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func commitInTheSetupIsExitSixtyFiveAndLeavesNoUser() throws {
        let (url, connection) = try electricRide()
        let text = try String(contentsOfFile: ElectricRide.planPath, encoding: .utf8)
            .replacingOccurrences(of: "\nrelations:\n", with: "  - commit; begin\n\nrelations:\n")
        let plan = try temporaryFile("plan.yml", text)
        defer { try? FileManager.default.removeItem(at: plan) }
        let line = try #require(text.components(separatedBy: "\n").firstIndex(of: "  - commit; begin")) + 1
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--plan", plan.path], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 65)
        #expect(result.standardError.hasPrefix("pgwarden: \(plan.path):\(line): setup: 'commit' (COMMIT) is not allowed here"))
        #expect(result.standardOutput.isEmpty)
        #expect(try connection.query("select count(*) from auth.users where email like '%.plan@example.com'").scalar == "0")
    }

    @Test func outputWritesTheReportAndStillShowsTheMatrix() throws {
        let (url, _) = try electricRide()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--output", file.path], environment: PgwardenCLI.cleanEnvironment(),
            directory: root)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("291 probes, 291 passed, 0 failed"))
        #expect(try String(contentsOf: file, encoding: .utf8).contains("291 probes, 291 passed, 0 failed"))
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let machine = try PgwardenCLI.run(
            ["test", "--database-url", url, "--format", "json", "--output", json.path],
            environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(machine.status == 0)
        #expect(machine.standardOutput.contains("291 probes, 291 passed, 0 failed"))
        let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: json))
        #expect(decoded is [String: Any])
    }

    @Test(arguments: ["/no/such/folder/report.json", "/tmp", "/proc/version"])
    func anUnwritableOutputIsOneLineAndExitSeventyThree(_ path: String) throws {
        let (url, _) = try electricRide()
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--format", "json", "--output", path],
            environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(result.status == 73)
        #expect(result.standardOutput.contains("291 probes, 291 passed, 0 failed"))  // the matrix still shows
        #expect(result.standardError.hasPrefix("pgwarden: cannot write the report to \(path): "))
        #expect(result.standardError.filter { $0 == "\n" }.count == 1, "\(result.standardError)")
    }

    @Test(arguments: [
        "postgres://alice:S3cr3t?x@127.0.0.1:1/db", "postgres://alice@127.0.0.1:1/db?pass%77ord=S3cr3t",
        "postgresql://alice:S3cr3t@127.0.0.1:1/db?sslmode=disable", "host=127.0.0.1 port=1 password='S3cr3t x'",
        "postgres://alice:S3c/r3t@127.0.0.1:1/db", "postgres://alice:S3c@r3t@127.0.0.1:1/db",
        "host=127.0.0.1 password=S3cr3t nonsense", "postgresql://alice:S3cr3t%zz@127.0.0.1:1/db",
        // libpq marks sslpassword (the client key's passphrase) secret too (dispchar '*').
        "postgres://alice@127.0.0.1:1/db?sslpassword=S3cr3t", "host=127.0.0.1 port=1 sslpassword='S3cr3t x'",
    ])
    func noConnectionStringShowsItsPassword(_ conninfo: String) throws {
        for format in ["text", "json"] {
            let result = try PgwardenCLI.run(
                ["test", "--database-url", conninfo, "--format", format], environment: PgwardenCLI.cleanEnvironment(),
                directory: root)
            #expect(result.status == 69 || result.status == 64, "\(result.all)")
            for piece in ["S3cr3t", "S3c", "r3t"] {
                #expect(!result.all.contains(piece), "\(conninfo): \(result.all)")
            }
            #expect(result.standardError.hasPrefix("pgwarden: "))
        }
    }

    @Test func aCommitInASeedFileIsRefusedAndNothingStays() throws {
        let database = try TestDatabase("seedseal")
        try database.connection.execute("create table public.thing (id int)")
        let folder = try MigrationFolder()
        try folder.write("01_a.sql", "insert into public.thing values (1);\n")
        try folder.write("02_b.sql", "insert into public.thing values (2);\n-- as a dump has it\nCOMMIT;\ninsert into public.thing values (3);\n")
        let result = try seed(folder, into: database)
        #expect(result.status == 65)
        #expect(result.standardError.hasPrefix("pgwarden: \(folder.path)/02_b.sql:3: `COMMIT`: a COMMIT without a BEGIN before it"))
        #expect(result.standardError.contains("nothing was applied"))
        #expect(try database.scalar("select count(*) from public.thing") == "0")
        // A ROLLBACK, even inside a pair, is refused too.
        try folder.write("02_b.sql", "begin;\ninsert into public.thing values (2);\nrollback;\n")
        let rollback = try seed(folder, into: database)
        #expect(rollback.status == 65, "\(rollback.all)")
        #expect(rollback.standardError.hasPrefix("pgwarden: \(folder.path)/02_b.sql:3: `ROLLBACK`: ROLLBACK would undo"))
        #expect(try database.scalar("select count(*) from public.thing") == "0")
    }

    /// A seed file wrapped in `BEGIN; ... COMMIT;` (the Supabase CLI runs it, the pair
    /// committing): the pair is dropped with a note, the rows are applied in pgwarden's
    /// seed transaction, and what the COMMIT would end (`SET LOCAL`) ends there.
    @Test func aSeedWrappedInBeginAndCommitIsAppliedWithANote() throws {
        let database = try TestDatabase("seedpair")
        try database.connection.execute("create table public.thing (id int, note text default current_setting('app.note', true))")
        let folder = try MigrationFolder()
        try folder.write("01_a.sql", "BEGIN;\nset local app.note = 'inside';\ninsert into public.thing (id) values (1);\nCOMMIT;\ninsert into public.thing (id) values (2);\n")
        try folder.write("02_b.sql", "begin;\ninsert into public.thing (id) values (3);\nend;\nbegin;\ninsert into public.thing (id) values (4);\ncommit;\n")
        let result = try seed(folder, into: database)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardError.contains(
            "pgwarden: note: \(folder.path)/01_a.sql: its BEGIN/COMMIT (lines 1, 4) are dropped"), "\(result.all)")
        #expect(result.standardError.contains("02_b.sql: its BEGIN/COMMIT (lines 1, 3, 4, 6) are dropped"), "\(result.all)")
        #expect(try database.scalar("select string_agg(id || ':' || coalesce(nullif(note, ''), '-'), ',' order by id) from public.thing")
            == "1:inside,2:-,3:-,4:-")
        // A failure after a pair rolls back every file, the pair's rows included.
        try database.connection.execute("truncate public.thing")
        try folder.write("03_c.sql", "insert into public.thing (id) values ('five');\n")
        let failed = try seed(folder, into: database)
        #expect(failed.status == 1, "\(failed.all)")
        #expect(failed.standardError.contains("(all seed files rolled back)"), "\(failed.all)")
        #expect(try database.scalar("select count(*) from public.thing") == "0")
    }

    @Test func aFailingSeedRollsBackEverySeedFileAndSaysSo() throws {
        let database = try TestDatabase("seedfail")
        try database.connection.execute("create table public.thing (id int primary key)")
        let folder = try MigrationFolder()
        try folder.write("01_a.sql", "insert into public.thing values (1);\n")
        try folder.write("02_b.sql", "insert into public.thing values (1);\n")
        let result = try seed(folder, into: database)
        #expect(result.status == 1)
        #expect(result.standardError.contains("(all seed files rolled back)"))
        #expect(try database.scalar("select count(*) from public.thing") == "0")
    }

    /// `pgwarden seed` of `folder`'s files into `database`.
    private func seed(_ folder: MigrationFolder, into database: TestDatabase) throws -> PgwardenCLI.Output {
        try PgwardenCLI.run(["seed", "--database-url", try database.url, "--seeds", folder.path], environment: PgwardenCLI.cleanEnvironment())
    }
}
