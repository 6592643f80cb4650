import Testing
import WardenKit
import TestSupport

/// Migrator logic against an in-memory history: planning, refusals, and what a
/// failure leaves behind.
@Suite struct MigratorTests {
    static func file(_ version: String, _ up: String = "select 1;", down: String? = "select 0;",
                     upOptions: String = "") throws -> MigrationFile
    {
        var text = "-- migrate:up \(upOptions)\n\(up)\n"
        if let down { text += "-- migrate:down\n\(down)\n" }
        return try MigrationDirectory.parse(fileName: "\(version)_m\(version).sql", text: text)
    }

    static func upOnly(_ version: String) throws -> MigrationFile {
        try MigrationDirectory.parse(fileName: "\(version)_m\(version).sql", text: "create table t\(version) ();")
    }

    func migrator(_ files: [MigrationFile], history: InMemoryHistory = InMemoryHistory()) -> Migrator {
        Migrator(directory: MigrationDirectory(path: "migrations", files: files), history: history, session: history)
    }

    func version(_ text: String) throws -> MigrationVersion { try #require(MigrationVersion(text)) }

    @Test func upAppliesPendingInOrderAndRecordsEach() throws {
        let history = InMemoryHistory()
        let files = try ["3", "1", "2"].map { try Self.file($0, "create table t\($0) ();") }
        let run = try migrator(files, history: history).up()
        #expect(history.versions == ["1", "2", "3"])
        #expect(history.executed == ["create table t1 ();", "create table t2 ();", "create table t3 ();"])  // one statement each
        #expect(run.steps.map(\.version) == ["1", "2", "3"])
        #expect(history.tableExists && !history.lockHeld)
        #expect(history.rows.allSatisfy { $0.state == .applied && $0.checksum.count == 64 })
        #expect(try migrator(files, history: history).up().steps.isEmpty)
    }

    @Test func upToStopsAtTheVersionAndRejectsUnknownOnes() throws {
        let history = InMemoryHistory()
        let files = try ["1", "2", "3"].map { try Self.file($0) }
        _ = try migrator(files, history: history).up(to: version("02"))
        #expect(history.versions == ["1", "2"])
        #expect(throws: MigrationInputError.unknownVersion(version: "7", folder: "migrations")) {
            try migrator(files, history: history).up(to: version("7"))
        }
        #expect(history.versions == ["1", "2"])
    }

    @Test func dryRunChangesNothing() throws {
        let history = InMemoryHistory()
        let files = try ["1", "2"].map { try Self.file($0) }
        let run = try migrator(files, history: history).up(dryRun: true)
        #expect(run.dryRun && run.steps.map(\.version) == ["1", "2"])
        #expect(history.rows.isEmpty && history.executed.isEmpty && !history.tableExists)
        #expect(run.summary.contains("would apply 2 migrations"))
    }

    @Test func aFailingMigrationRollsBackAloneAndStopsTheRun() throws {
        let history = InMemoryHistory()
        var boom = PGError(kind: .server, message: "boom", sqlState: "P0001")
        boom.completedStatements = 0
        history.failures["fail here"] = boom
        let files = try [Self.file("1"), Self.file("2", "select 'fail here';"), Self.file("3")]
        let failure = try #require(throws: MigrationSQLFailure.self) { try migrator(files, history: history).up() }
        #expect(failure.file.version.text == "2")
        #expect(failure.outcome == .rolledBack)
        #expect(failure.earlierInRun == 1)
        #expect(history.versions == ["1"])
        #expect(!history.isInTransaction && !history.lockHeld)
        #expect(failure.description.contains("1 earlier migration of this run stays applied"))
    }

    @Test func refusesDriftUnlessAllowed() throws {
        let history = InMemoryHistory()
        let original = try [Self.file("1", "create table a ();"), Self.file("2")]
        _ = try migrator(original, history: history).up()
        let edited = try [Self.file("1", "create table a (id int);"), Self.file("2"), Self.file("3")]
        let drift = try #require(throws: MigrationRefusal.self) { try migrator(edited, history: history).up() }
        #expect(drift.description.contains("m1.sql was modified"))
        #expect(history.versions == ["1", "2"])
        let missing = try #require(throws: MigrationRefusal.self) {
            try migrator([Self.file("2"), Self.file("3")], history: history).up()
        }
        #expect(missing.description.contains("applied migration 1 m1 has no file"))
        _ = try migrator(edited, history: history).up(allowDrift: true)
        #expect(history.versions == ["1", "2", "3"])
    }

    @Test func statusNamesEveryState() throws {
        let history = InMemoryHistory()
        history.rows = [
            MigrationRecord(version: "1", name: "m1", checksum: try Self.file("1").checksum),
            MigrationRecord(version: "2", name: "m2", checksum: "old"),
            MigrationRecord(version: "4", name: "gone", checksum: "x"),
            MigrationRecord(version: "5", name: "m5", checksum: try Self.file("5").checksum, state: .failed, error: "half"),
        ]
        let files = try ["1", "2", "3", "5"].map { try Self.file($0) }
        let report = try migrator(files, history: history).status()
        #expect(report.entries.map(\.state) == [.applied, .modified, .pending, .missing, .failed])
        #expect(report.outcome == .drift)
        #expect(report.summary == "5 migrations: 1 applied, 1 pending, 1 modified, 1 missing, 1 failed")
        let json = try report.json()
        #expect(json.contains(#""applied_at" : null"#) && json.contains(#""state" : "missing""#))
        history.rows = [history.rows[0]]
        #expect(try migrator(files, history: history).status().outcome == .pending)
        #expect(try migrator([Self.file("1")], history: history).status().outcome == .upToDate)
    }

    @Test func downRollsBackNewestFirst() throws {
        let history = InMemoryHistory()
        let files = try ["1", "2", "3", "4"].map { try Self.file($0, "create table t\($0) ();", down: "drop table t\($0);") }
        _ = try migrator(files, history: history).up()
        _ = try migrator(files, history: history).down()
        #expect(history.versions == ["1", "2", "3"])
        #expect(history.executed.last == "drop table t4;")
        _ = try migrator(files, history: history).down(.steps(2))
        #expect(history.versions == ["1"])
        _ = try migrator(files, history: history).up()
        _ = try migrator(files, history: history).down(.to(version("2")))
        #expect(history.versions == ["1", "2"])
        _ = try migrator(files, history: history).down(.all)
        #expect(history.versions.isEmpty)
        #expect(try migrator(files, history: history).down(.all).steps.isEmpty)
        #expect(throws: MigrationInputError.self) { try migrator(files, history: history).down(.to(version("9"))) }
    }

    @Test func downRefusesBeforeChangingAnythingWhenAMigrationIsIrreversible() throws {
        let history = InMemoryHistory()
        let files = try [Self.file("1"), Self.upOnly("2"), Self.file("3"), Self.file("4", down: "-- nothing")]
        _ = try migrator(files, history: history).up()
        let executed = history.executed
        let emptyDown = try #require(throws: MigrationRefusal.self) { try migrator(files, history: history).down() }
        #expect(emptyDown.description.contains("m4.sql: cannot be rolled back: its `-- migrate:down` section is empty"))
        let upOnly = try #require(throws: MigrationRefusal.self) {
            try migrator(files, history: history).down(.to(version("1")))
        }
        #expect(upOnly.description.contains("m4.sql") || upOnly.description.contains("m2.sql"))
        #expect(history.versions == ["1", "2", "3", "4"])
        #expect(history.executed == executed)
    }

    @Test func downRefusesWhenTheFileIsMissing() throws {
        let history = InMemoryHistory()
        _ = try migrator([Self.file("1"), Self.file("2")], history: history).up()
        #expect(throws: MigrationRefusal.self) { try migrator([Self.file("1")], history: history).down() }
        #expect(history.versions == ["1", "2"])
    }

    @Test func redoRollsBackAndReappliesTheNewest() throws {
        let history = InMemoryHistory()
        _ = try migrator([Self.file("1"), Self.file("2", "create table v1 ();", down: "drop table v1;")], history: history).up()
        let edited = try [Self.file("1"), Self.file("2", "create table v2 ();", down: "drop table v2;")]
        let run = try migrator(edited, history: history).redo()
        #expect(run.steps.map(\.direction) == [.down, .up])
        #expect(history.executed.suffix(2) == ["drop table v2;", "create table v2 ();"])
        #expect(try migrator(edited, history: history).status().outcome == .upToDate)
    }

    @Test func transactionFalseIsMarkedFailedUntilItFinishes() throws {
        let history = InMemoryHistory()
        var error = PGError(kind: .server, message: "nope", sqlState: "42P01")
        error.position = 13
        history.failures["missing_table"] = error
        let file = try Self.file(
            "1", "create table a ();\ncreate index concurrently i on a ((1));\ninsert into missing_table values (1);",
            upOptions: "transaction:false")
        let failure = try #require(throws: MigrationSQLFailure.self) { try migrator([file], history: history).up() }
        #expect(failure.outcome == .markedFailed(committedStatements: 2))
        #expect(history.executed.count == 2)  // each statement sent on its own
        #expect(history.rows.map(\.state) == [.failed])
        #expect(history.rows.first?.error?.contains("m1.sql:4:13: nope") == true)
        #expect(failure.description.contains("resolve it as applied"))
        #expect(!failure.description.contains("pgwarden"), "library messages name no command")
        #expect(throws: MigrationRefusal.self) { try migrator([file], history: history).up() }
        try migrator([file], history: history).resolve(version("1"), as: .rolledBack)
        #expect(history.rows.isEmpty)
        history.failures = [:]
        _ = try migrator([file], history: history).up()
        #expect(history.rows.map(\.state) == [.applied])
        #expect(throws: MigrationRefusal.self) { try migrator([file], history: history).resolve(version("1"), as: .applied) }
    }

    @Test func resolveAppliedTakesTheCurrentChecksum() throws {
        let history = InMemoryHistory()
        history.rows = [MigrationRecord(version: "1", name: "m1", checksum: "old", state: .failed, error: "x")]
        let settled = try migrator([Self.file("1")], history: history).resolve(version("1"), as: .applied)
        let expected = try Self.file("1").checksum
        #expect(settled?.state == .applied && settled?.checksum == expected)
        #expect(try migrator([Self.file("1")], history: history).status().outcome == .upToDate)
    }

    @Test func aSectionThatEndsItsOwnTransactionIsMarkedFailed() throws {
        let history = InMemoryHistory()
        history.endsOwnTransaction = "call commits()"
        let error = try #require(throws: MigrationRefusal.self) {
            try migrator([Self.file("1", "call commits();")], history: history).up()
        }
        #expect(error.description.contains("transaction:false"))
        #expect(history.rows.map(\.state) == [.failed])
    }

    @Test func lockTimeoutChangesNothing() throws {
        let history = InMemoryHistory()
        history.lockAvailable = false
        var events: [MigrationEvent] = []
        let subject = migrator([try Self.file("1")], history: history)
        subject.observer = { events.append($0) }
        #expect(throws: MigrationRefusal.self) { try subject.up(lockTimeout: .seconds(3)) }
        #expect(history.rows.isEmpty && history.executed.isEmpty)
        guard case .waitingForLock(let timeout) = events.first else {
            Issue.record("no waiting event")
            return
        }
        #expect(timeout == .seconds(3))
    }
}
