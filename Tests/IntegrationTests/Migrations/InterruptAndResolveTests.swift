import Foundation
import Testing
import WardenKit
import TestSupport

/// Interrupts exit like the signal (130, 143, 129) every time, and `resolve` says what
/// to do in every state.
@Suite struct InterruptAndResolveTests {
    func sleepingBackend(_ database: TestDatabase) throws -> String? {
        try PgwardenCLI.waitFor(seconds: 30) {
            try database.scalar("""
                select pid::text from pg_stat_activity
                where datname = current_database() and pid <> pg_backend_pid() and wait_event = 'PgSleep'
                """)
        }
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func anInterruptDuringUpExitsLikeTheSignalAndRollsBack(_ signal: Int32, _ status: Int32) throws {
        for _ in 0..<4 {
            let database = try TestDatabase()
            let folder = try MigrationFolder(["1_slow.sql": "create table slow (id int);\nselect pg_sleep(60);\n"])
            let running = try PgwardenCLI.start(["up", "--database-url", try database.url, "--migrations", folder.path])
            _ = try #require(try sleepingBackend(database), "the migration never reached pg_sleep")
            kill(running.process.processIdentifier, signal)
            let output = running.wait()
            #expect(output.status == status, "\(output.all)")
            #expect(try !database.exists("slow"))
            #expect(try database.historyVersions() == [])
        }
    }

    @Test func resolveSaysWhatToDoInEveryState() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_done.sql": "create table done (id int);",
            "2_waiting.sql": "create table waiting (id int);",
        ])
        let arguments = ["--database-url", try database.url, "--migrations", folder.path]
        #expect(try PgwardenCLI.run(["up", "--to", "1"] + arguments).status == 0)
        let pending = try PgwardenCLI.run(["resolve", "2", "--applied"] + arguments)
        #expect(pending.status == 65)
        #expect(pending.standardError.contains("migration 2 is pending, not failed: it was never applied"), "\(pending.all)")
        #expect(pending.standardError.contains("`pgwarden up` applies it"))
        let applied = try PgwardenCLI.run(["resolve", "1", "--rolled-back"] + arguments)
        #expect(applied.status == 65)
        #expect(applied.standardError.contains("migration 1 is applied, not failed: it finished"))
        let unknown = try PgwardenCLI.run(["resolve", "7", "--applied"] + arguments)
        #expect(unknown.status == 65)
        #expect(unknown.standardError.contains("no migration has version 7"))
        try database.connection.execute("update pgwarden.schema_migrations set state = 'failed', error = 'x' where version = '1'")
        let failed = try PgwardenCLI.run(["resolve", "1", "--applied"] + arguments)
        #expect(failed.status == 0 && failed.standardOutput.contains("marked 1 applied"))
        #expect(try database.state("1") == "applied")
        #expect(try database.historyVersions() == ["1"])
    }
}
