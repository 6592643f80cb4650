import Foundation
import Testing
import WardenKit
import TestSupport

/// bootstrap, seed, reset, test and dev through the real executable: what a user sees.
@Suite struct ProjectCommandLineTests {
    private let root = PackagePaths.root.path

    private func electricRideURL(seeded: Bool = true) throws -> (url: String, connection: Connection) {
        let connection = try ElectricRide.database(seeded: seeded)
        let name = connection.settings.parameters["dbname"] ?? ""
        let cluster = try TestCluster.cluster
        return (cluster.url(database: name, user: cluster.projectUser), connection)
    }

    /// A new seeds folder whose one file, 01_bad.sql, has `badLine` on its line 2.
    private static func seedsFolder(badLine: String) throws -> URL {
        let seeds = FileManager.default.temporaryDirectory.appendingPathComponent("seeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: seeds, withIntermediateDirectories: true)
        try "insert into public.colour (name) values ('x');\n\(badLine)\n"
            .write(to: seeds.appendingPathComponent("01_bad.sql"), atomically: true, encoding: .utf8)
        return seeds
    }

    /// On a terminal, `dev` shows a live line while it observes the access (a 345-table
    /// project was silent for 11 s after its migrations), and clears it before the
    /// matrix; piped, it shows none. The terminal is util-linux's `script`.
    @Test func devShowsALiveLineWhileItObservesOnATerminal() throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("devline-\(UUID().uuidString)")
        let migrations = project.appendingPathComponent("supabase/migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: project) }
        try "project_id = \"devline\"\n".write(to: project.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        try "create table public.notes (id bigint generated always as identity primary key, body text);\n"
            .write(to: migrations.appendingPathComponent("20240101000000_notes.sql"), atomically: true, encoding: .utf8)
        let program = try PgwardenCLI.executable.get().path
        let terminal = try PgwardenCLI.runProgram(
            "/usr/bin/script", ["-q", "-e", "-c", "\(program) dev --project \(project.path)", "/dev/null"])
        #expect(terminal.status == 0, "\(terminal.all)")
        let line = "observing what anon, two signed-in users and service_role may do ... "
        let shown = try #require(terminal.standardOutput.range(of: line), "\(terminal.all)")
        let matrix = try #require(terminal.standardOutput.range(of: "relation "), "\(terminal.all)")
        #expect(shown.upperBound < matrix.lowerBound)
        #expect(terminal.standardOutput[shown.upperBound..<matrix.lowerBound].contains("\u{1B}[2K"), "\(terminal.all)")
        let piped = try PgwardenCLI.run(["dev", "--project", project.path])
        #expect(piped.status == 0, "\(piped.all)")
        #expect(!piped.all.contains("observing what"), "\(piped.all)")
    }

    /// A table whose only column is an identity ALWAYS has nothing a client could send:
    /// the draft gave it no sample, and its own check refused the drafted plan ("needs a
    /// 'sample'"): dev exited 65. Its insert probes send `default values`.
    @Test func devObservesATableWithNothingToInsert() throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("identityonly-\(UUID().uuidString)")
        let migrations = project.appendingPathComponent("supabase/migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: project) }
        try "create table public.tickets (id bigint generated always as identity primary key);\n"
            .write(to: migrations.appendingPathComponent("20240101000000_tickets.sql"), atomically: true, encoding: .utf8)
        let dev = try PgwardenCLI.run(["dev", "--project", project.path])
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.standardOutput.contains("DANGER public.tickets · ava: a signed-in user may insert every row"), "\(dev.all)")
    }

    @Test func bootstrapTwiceSaysNothingChangedTheSecondTime() throws {
        let database = try TestDatabase("boot")
        let first = try PgwardenCLI.run(["bootstrap", "--database-url", database.url], environment: PgwardenCLI.cleanEnvironment())
        #expect(first.status == 0)
        #expect(first.standardOutput.contains("bootstrap: created"))
        let second = try PgwardenCLI.run(["bootstrap", "--database-url", database.url], environment: PgwardenCLI.cleanEnvironment())
        #expect(second.status == 0)
        #expect(second.standardOutput.contains("nothing changed"))
    }

    @Test func testPassesOnElectricRideAndWritesEveryFormat() throws {
        let (url, _) = try electricRideURL()
        let text = try PgwardenCLI.run(["test", "--database-url", url], environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("291 probes, 291 passed, 0 failed"))
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: junit) }
        let withFile = try PgwardenCLI.run(
            ["test", "--database-url", url, "--format", "junit", "--output", junit.path],
            environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(withFile.status == 0)
        #expect(withFile.standardOutput.contains("public.saved"))  // the matrix still shows
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("<testsuites name=\"pgwarden access plan\" tests=\"291\" failures=\"0\""))
        let tap = try PgwardenCLI.run(["test", "--database-url", url, "--format", "tap"], environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(tap.standardOutput.hasPrefix("TAP version 13\n1..291\n"))
    }

    @Test func testExitsOneAndNamesTheFailingCell() throws {
        let (url, connection) = try electricRideURL()
        try connection.execute("alter table public.saved disable row level security")
        let result = try PgwardenCLI.run(["test", "--database-url", url], environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("✗ ava · public.saved · select: expected own"))
    }

    @Test func aBrokenPlanIsExitSixtyFiveWithItsLine() throws {
        let (url, _) = try electricRideURL()
        let plan = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: plan) }
        try "personas:\n  anon: { role: anon }\nrelations:\n  colour:\n    access: { anon: sometimes }\n"
            .write(to: plan, atomically: true, encoding: .utf8)
        let result = try PgwardenCLI.run(["test", "--database-url", url, "--plan", plan.path], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 65)
        #expect(result.standardError == "pgwarden: \(plan.path):5: unknown access 'sometimes' in relation 'colour' (expected none, denied, read, all, or a map of select/insert/update/delete)\n")
    }

    @Test func resetRefusesWithoutYesAndChangesNothing() throws {
        let (url, connection) = try electricRideURL()
        let before = try DatabaseFingerprint.rows(connection)
        let refused = try PgwardenCLI.run(["reset", "--database-url", url], environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--yes"))
        #expect(try DatabaseFingerprint.rows(connection) == before)
        let done = try PgwardenCLI.run(["reset", "--yes", "--database-url", url], environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(done.status == 0)
        #expect(done.standardOutput.contains("rolled back 15 migrations"))
        #expect(done.standardOutput.contains("seed: applied 3 files"))
    }

    @Test func resetWithABadSeedFileRefusesBeforeRollingAnythingBack() throws {
        let (url, connection) = try electricRideURL()
        try connection.execute("insert into public.colour (name) values ('kept by the refusal')")
        let before = try DatabaseFingerprint.rows(connection)
        let seeds = try Self.seedsFolder(badLine: "commit;")
        defer { try? FileManager.default.removeItem(at: seeds) }
        let result = try PgwardenCLI.run(
            ["reset", "--yes", "--database-url", url, "--seeds", seeds.path],
            environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(result.status == 65, "\(result.all)")
        #expect(result.standardError.contains("01_bad.sql:2:"), "\(result.standardError)")
        #expect(!result.standardOutput.contains("rolled back"), "\(result.standardOutput)")
        #expect(try DatabaseFingerprint.rows(connection) == before)
    }

    @Test func seedReportsAMissingFolder() throws {
        let database = try TestDatabase("seed")
        let result = try PgwardenCLI.run(["seed", "--database-url", database.url, "--seeds", "/no/such/seeds"], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 65)
        #expect(result.standardError == "pgwarden: /no/such/seeds: seeds folder not found\n")
    }

    @Test func seedChecksEveryFileBeforeItConnects() throws {
        let seeds = try Self.seedsFolder(badLine: "rollback;")
        defer { try? FileManager.default.removeItem(at: seeds) }
        let result = try PgwardenCLI.run(
            ["seed", "--database-url", "postgresql://nobody@/none?host=/nonexistent-pgwarden-socket", "--seeds", seeds.path],
            environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 65, "\(result.all)")
        #expect(result.standardError.contains("01_bad.sql:2: `ROLLBACK`: ROLLBACK would undo"), "\(result.standardError)")
    }

    @Test func devRunsTheWholeJobAndLeavesNothingBehind() throws {
        let result = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root)
        #expect(result.status == 0, "\(result.all)")
        for line in ["bootstrap: created", "applied 15 migrations", "seed: applied 3 files", "291 probes, 291 passed, 0 failed"] {
            #expect(result.standardOutput.contains(line), "missing: \(line)")
        }
    }

    @Test func devKeepPrintsTheURLAndCleansUpOnCtrlC() throws {
        let running = try PgwardenCLI.start(["dev", "--keep"], environment: PgwardenCLI.cleanEnvironment(), directory: root)
        let settings = try ConnectionSettings(try #require(running.keptServerURL()))
        let directory = try #require(settings.parameters["host"])
        #expect(try Connection(settings).query("select count(*) from public.listing").scalar == "24")
        kill(running.process.processIdentifier, SIGINT)
        let output = running.wait()
        #expect(output.status == 130)
        #expect(!FileManager.default.fileExists(atPath: directory))
        // The URL is said before the plan runs too, so a long pgTAP suite does not hide it.
        let lines = output.standardOutput.split(separator: "\n")
        let early = try #require(lines.firstIndex { $0.hasPrefix("keep: the server stays up after the run: postgres") }, "\(output.all)")
        let matrix = try #require(lines.firstIndex { $0.hasPrefix("access plan ") }, "\(output.all)")
        #expect(early < matrix, "\(output.all)")
    }
}
