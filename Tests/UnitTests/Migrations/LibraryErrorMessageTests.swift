import Foundation
import Testing
@testable import WardenKit

/// The library's migration errors describe the situation in library terms: no CLI
/// flag and no `pgwarden` command (the CLI appends those as its own hint).
@Suite struct LibraryErrorMessageTests {
    static let cliWords = ["--allow-drift", "--lock-timeout", "--ddl-lock-timeout", "--retries", "--migrations",
                           "--applied", "--rolled-back", "pgwarden resolve", "pgwarden status", "pgwarden up",
                           "pgwarden down", "pgwarden new"]

    static func assertNoCLIWords(_ message: String) {
        for word in cliWords { #expect(!message.contains(word), "\(word) in: \(message)") }
    }

    @Test func refusalsNameNoFlagOrCommand() throws {
        let file = try MigratorTests.file("1")
        let modified = MigrationRecord(version: "1", name: "m1", checksum: "other")
        let failed = MigrationRecord(version: "2", name: "m2", checksum: "x", state: .failed)
        let gone = MigrationRecord(version: "3", name: "m3", checksum: "x")
        let entries = MigrationStatusEntry.entries(files: [file], records: [modified, failed, gone])
        let refusals: [MigrationRefusal] = [
            .drift(entries + entries), .unresolvedFailures(entries.filter { $0.state == .failed }),
            .missingFile(version: "3", name: "m3"), .irreversible(file: "m1.sql", reason: "no down section"),
            .lockTimeout(waited: .seconds(1)), .notFailed(version: "1", state: .pending),
            .notFailed(version: "1", state: .applied),
            .transactionEnded(file: "m1.sql", version: "1", direction: .up),
        ]
        for refusal in refusals { Self.assertNoCLIWords(refusal.description) }
        #expect(MigrationRefusal.lockTimeout(waited: .milliseconds(1500)).description.contains("after 1500 ms"))
        #expect(MigrationRefusal.drift(entries + entries).description.contains("and 3 more"))
    }

    @Test func inputErrorsNameNoFlagOrCommand() {
        let errors: [MigrationInputError] = [
            .folderMissing(folder: "migrations"), .unknownVersion(version: "7", folder: "migrations"),
            .invalidMigrationName(name: "!!!"),
        ]
        for error in errors { Self.assertNoCLIWords(error.description) }
        #expect(MigrationInputError.folderMissing(folder: "db").description == "migrations folder db does not exist")
    }

    @Test func aFailureMarkedFailedSaysHowToSettleItInLibraryTerms() throws {
        let history = InMemoryHistory()
        history.failures["boom"] = PGError(kind: .server, message: "boom", sqlState: "42P01")
        let file = try MigratorTests.file("1", "select 1;\nselect boom;", upOptions: "transaction:false")
        let migrator = Migrator(
            directory: MigrationDirectory(path: "migrations", files: [file]), history: history, session: history)
        let failure = try #require(throws: MigrationSQLFailure.self) { try migrator.up() }
        Self.assertNoCLIWords(failure.description)
        #expect(failure.description.contains("resolve it as applied"))
    }

    @Test func theStatusTableNamesNoCommandUnlessTheCallerAddsAdvice() throws {
        let failed = MigrationRecord(version: "1", name: "m1", checksum: "x", state: .failed, error: "boom")
        let report = MigrationStatusReport(
            entries: MigrationStatusEntry.entries(files: [try MigratorTests.file("1")], records: [failed]), skipped: [])
        Self.assertNoCLIWords(report.text())
        #expect(report.text().contains("boom; check the database, then resolve it as applied or as rolled back"))
        let advised = report.text { $0.state == .failed ? "run the resolver on \($0.version)" : nil }
        #expect(advised.contains("rolled back; run the resolver on 1"))
    }
}
