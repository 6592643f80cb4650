import Foundation
import Testing
import WardenKit
import TestSupport

/// Guarantees 1 and 2: a killed run leaves a migration boundary; concurrent runs apply
/// each migration once.
@Suite struct CrashAndConcurrencyTests {
    /// The pid of a backend of `database` sleeping in pg_sleep, once there is one.
    func sleepingBackend(_ database: TestDatabase) throws -> String? {
        try PgwardenCLI.waitFor(seconds: 30) {
            try database.scalar("""
                select pid::text from pg_stat_activity
                where datname = current_database() and pid <> pg_backend_pid() and wait_event = 'PgSleep'
                """)
        }
    }

    func backendGone(_ database: TestDatabase, _ pid: String) throws -> Bool {
        try PgwardenCLI.waitFor(seconds: 15) {
            try database.scalar("select count(*) from pg_stat_activity where pid = \(pid)") == "0" ? true : nil
        } ?? false
    }

    @Test func killMinusNineDuringAMigrationLeavesTheDatabaseAtABoundary() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_first.sql": "-- migrate:up\ncreate table first (id int);\n-- migrate:down\ndrop table first;\n",
            "2_slow.sql": "-- migrate:up\ncreate table slow (id int);\ninsert into slow values (1);\nselect pg_sleep(120);\n-- migrate:down\ndrop table slow;\n",
            "3_last.sql": "-- migrate:up\ncreate table last (id int);\n-- migrate:down\ndrop table last;\n",
        ])
        let arguments = ["up", "--database-url", try database.url, "--migrations", folder.path]
        let running = try PgwardenCLI.start(arguments)
        let backend = try #require(try sleepingBackend(database), "the migration never reached pg_sleep")
        kill(running.process.processIdentifier, SIGKILL)
        let killed = running.wait()
        #expect(killed.status == SIGKILL && running.process.terminationReason == .uncaughtSignal)

        // The orphaned backend notices its client is gone (client_connection_check_interval)
        // and rolls back on its own, releasing the lock.
        #expect(try backendGone(database, backend), "the orphaned backend kept running")
        #expect(try database.historyVersions() == ["1"])
        #expect(try database.exists("first"))
        #expect(try !database.exists("slow"))

        let status = try PgwardenCLI.run(["status", "--database-url", try database.url, "--migrations", folder.path])
        #expect(status.status == 2)
        #expect(status.standardOutput.split(separator: "\n").contains { $0.hasPrefix("2 ") && $0.contains("pending") })

        try folder.write("2_slow.sql", "-- migrate:up\ncreate table slow (id int);\ninsert into slow values (1);\nselect pg_sleep(0.1);\n-- migrate:down\ndrop table slow;\n")
        let rerun = try PgwardenCLI.run(arguments)
        #expect(rerun.status == 0, "\(rerun.all)")
        #expect(try database.historyVersions() == ["1", "2", "3"])
        #expect(try database.scalar("select count(*) from slow") == "1")
    }

    @Test func killDuringATransactionFalseMigrationShowsItFailed() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_slow.sql": "-- migrate:up transaction:false\ncreate table half (id int);\nselect pg_sleep(120);\ncreate table other (id int);\n",
        ])
        let arguments = ["--database-url", try database.url, "--migrations", folder.path]
        let running = try PgwardenCLI.start(["up"] + arguments)
        let backend = try #require(try sleepingBackend(database))
        kill(running.process.processIdentifier, SIGKILL)
        _ = running.wait()
        #expect(try backendGone(database, backend))
        #expect(try database.exists("half") && !database.exists("other"))
        #expect(try database.state("1") == "failed")
        let status = try PgwardenCLI.run(["status"] + arguments)
        #expect(status.status == 3)
        #expect(status.standardOutput.contains("failed") && status.standardOutput.contains("pgwarden resolve 1"))
        let refused = try PgwardenCLI.run(["up"] + arguments)
        #expect(refused.status == 3 && refused.standardError.contains("resolve 1 --applied"))
    }

    @Test func twoConcurrentRunsApplyEachMigrationOnce() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_counter.sql": "-- migrate:up\ncreate table counter (n int);\ninsert into counter values (1);\nselect pg_sleep(3);\n",
            "2_more.sql": "-- migrate:up\ninsert into counter values (2);\n",
            "3_index.sql": "-- migrate:up transaction:false\ncreate index concurrently counter_n on counter (n);\ninsert into counter values (3);\n",
        ])
        let arguments = ["up", "--database-url", try database.url, "--migrations", folder.path]
        let first = try PgwardenCLI.start(arguments)
        let second = try PgwardenCLI.start(arguments)
        let outputs = [first.wait(), second.wait()]
        #expect(outputs.map(\.status) == [0, 0], "\(outputs.map(\.all))")
        #expect(try database.scalar("select string_agg(n::text, ',' order by n) from counter") == "1,2,3")
        #expect(try database.historyVersions() == ["1", "2", "3"])
        let applied = outputs.filter { $0.standardOutput.contains("applied 3 migrations") }
        let waited = outputs.filter {
            $0.standardError.contains("waiting") && $0.standardOutput.contains("nothing to do")
        }
        #expect(applied.count == 1 && waited.count == 1, "\(outputs.map(\.all))")
    }

    @Test func aLockTimeoutExitsSeventyFiveAndChangesNothing() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(["1_a.sql": "-- migrate:up\ncreate table a (id int);\n"])
        let holder = try Connection(database.settings)
        try holder.query("select pg_advisory_lock(\(PostgresMigrationSession.lockKey))")
        let arguments = ["up", "--database-url", try database.url, "--migrations", folder.path]
        let started = Date()
        let output = try PgwardenCLI.run(arguments + ["--lock-timeout", "1"])
        #expect(output.status == 75)
        #expect(Date().timeIntervalSince(started) < 15)
        let message = output.standardError.split(separator: "\n").last.map(String.init) ?? ""
        #expect(message.contains("migration lock after 1 s") && message.contains("--lock-timeout"))
        #expect(try database.historyVersions() == nil && !database.exists("a"))
        holder.close()
        #expect(try PgwardenCLI.run(arguments).status == 0)
        #expect(try database.exists("a"))
    }
}
