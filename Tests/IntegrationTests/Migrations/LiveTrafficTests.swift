import Foundation
import Testing
import WardenKit
import TestSupport

/// Migrations on a database in use: a migration that needs a lock another session
/// holds gives up after --ddl-lock-timeout (readers never queue behind it longer),
/// is rolled back and retried, and finally fails naming the blocking session.
@Suite struct LiveTrafficTests {
    func setUp() throws -> (TestDatabase, MigrationFolder) {
        let database = try TestDatabase()
        try database.connection.execute("create table rides (id int); insert into rides values (1), (2)")
        let folder = try MigrationFolder([
            "1_add_column.sql": "-- migrate:up\nalter table rides add column fare int;\n-- migrate:down\nalter table rides drop column fare;\n",
        ])
        return (database, folder)
    }

    /// A session that read the table in a transaction it keeps open (as a slow report would).
    func blocker(_ database: TestDatabase) throws -> Connection {
        let connection = try Connection(database.settings)
        try connection.execute("set application_name = 'slow-report'")
        try connection.execute("begin; select count(*) from rides")
        return connection
    }

    @Test func aMigrationBlockedByALongTransactionFailsNamingTheBlocker() throws {
        let (database, folder) = try setUp()
        let holder = try blocker(database)
        let holderPID = try #require(try database.scalar(
            "select pid::text from pg_stat_activity where application_name = 'slow-report' and datname = current_database()"))
        let clock = ContinuousClock()
        let started = clock.now
        let running = try PgwardenCLI.start([
            "up", "--ddl-lock-timeout", "0.6", "--retries", "2", "--database-url", try database.url,
            "--migrations", folder.path,
        ])
        // While the migration waits, a reader that queues behind it waits at most the timeout.
        Thread.sleep(forTimeInterval: 0.2)
        let reader = try Connection(database.settings)
        let readStart = clock.now
        #expect(try reader.query("select count(*) from rides").scalar == "2")
        let readerWait = clock.now - readStart
        let output = running.wait()
        let elapsed = clock.now - started
        #expect(readerWait < .milliseconds(1500), "a reader queued \(readerWait) behind the migration")
        #expect(output.status == 75, "\(output.all)")
        let report = output.standardError
        #expect(report.contains("lock timeout") || report.contains("canceling statement due to lock timeout"), "\(report)")
        #expect(report.contains("waited 600 ms for a lock 3 times"), "\(report)")
        #expect(report.contains("pid \(holderPID) (application slow-report, idle in transaction, query started"), "\(report)")
        #expect(report.contains("select count(*) from rides"))
        #expect(report.components(separatedBy: "retrying in").count == 3, "two retries announced: \(report)")
        #expect(elapsed > .milliseconds(1800) && elapsed < .seconds(20))
        #expect(try database.historyVersions() == [])
        #expect(try database.scalar("select count(*) from information_schema.columns where table_name = 'rides' and column_name = 'fare'") == "0")
        try holder.execute("rollback")
    }

    /// With an earlier migration in the run, the blocked one's first attempt travels
    /// with the earlier one's COMMIT: that one stays applied, this one is retried.
    @Test(arguments: [false, true])
    func aMigrationRetriesUntilTheBlockingTransactionEnds(withAnEarlierMigration: Bool) throws {
        let (database, folder) = try setUp()
        if withAnEarlierMigration {
            try folder.write("0_first.sql", "-- migrate:up\ncreate table first (id int);\n-- migrate:down\ndrop table first;\n")
        }
        let holder = try blocker(database)
        let running = try PgwardenCLI.start([
            "up", "--ddl-lock-timeout", "0.3", "--retries", "5", "--database-url", try database.url,
            "--migrations", folder.path,
        ])
        Thread.sleep(forTimeInterval: 1.0)
        try holder.execute("commit")
        let output = running.wait()
        #expect(output.status == 0, "\(output.all)")
        #expect(output.standardError.contains("waited 300 ms for a lock held by another session; rolled back, retrying in"))
        #expect(try database.historyVersions() == (withAnEarlierMigration ? ["0", "1"] : ["1"]))
        #expect(try database.exists("first") == withAnEarlierMigration)
        #expect(try database.scalar("select count(*) from information_schema.columns where table_name = 'rides' and column_name = 'fare'") == "1")
    }

    @Test func aTransactionFalseStatementRetriesOnItsOwn() throws {
        let (database, folder) = try setUp()
        try folder.write("1_add_column.sql", "-- migrate:up transaction:false\ncreate table other (id int);\nalter table rides add column fare int;\n")
        let holder = try blocker(database)
        let running = try PgwardenCLI.start([
            "up", "--ddl-lock-timeout", "0.3", "--retries", "1", "--database-url", try database.url,
            "--migrations", folder.path,
        ])
        let output = running.wait()
        #expect(output.status == 75, "\(output.all)")
        #expect(output.standardError.contains("slow-report"), "\(output.standardError)")
        #expect(output.standardError.contains("ran without a transaction: 1 statement before the failing one is committed"))
        #expect(try database.state("1") == "failed")
        try holder.execute("rollback")
    }

    /// Library users get the same limits as the CLI's flags, through `MigrationRunOptions`.
    @Test func theLibrarysRunOptionsSetTheLockWaitAndRetries() throws {
        let (database, folder) = try setUp()
        let holder = try blocker(database)
        let migrations = try Migrations(directory: URL(fileURLWithPath: folder.path))
        let options = MigrationRunOptions(lockTimeout: .seconds(5), ddlLockTimeout: .milliseconds(200), lockRetries: 0)
        let clock = ContinuousClock()
        let started = clock.now
        let failure = try #require(throws: MigrationLockWaitFailure.self) {
            try migrations.up(on: try Connection(database.settings), options: options)
        }
        #expect(clock.now - started < .seconds(5), "gave up after the DDL lock timeout, not later")
        #expect(failure.attempts == 1 && failure.lockTimeout == .milliseconds(200))
        #expect(failure.failure.outcome == .rolledBack)
        #expect(failure.description.contains("waited 200 ms for a lock 1 time; gave up"), "\(failure)")
        #expect(!failure.description.contains("--"), "the library names no CLI flag: \(failure)")
        #expect(try database.historyVersions() == nil || database.historyVersions() == [])
        try holder.execute("rollback")
    }
}
