import Foundation
import Testing
@testable import WardenKit
@testable import WardenPostgres

/// Every error the library throws says what kind of failure it is; the command line's
/// exit status follows from that alone (ErrorReporter.exitCode).
@Suite struct ErrorCategoryTests {
    @Test func serverAndConnectionErrorsAreCategorisedByKind() {
        #expect(PGError(kind: .connection, message: "refused").category == .unavailable)
        #expect(PGError(kind: .invalidConnectionString, message: "bad").category == .invalidSettings)
        #expect(PGError(kind: .server, message: "syntax", sqlState: .syntaxError).category == .sqlFailed)
        #expect(PGError(kind: .server, message: "canceling statement due to user request", sqlState: .queryCanceled)
            .category == .interrupted)
        #expect(PGError(kind: .server, message: "canceling statement due to statement timeout", sqlState: .queryCanceled)
            .category == .sqlFailed)
    }

    @Test func migrationRefusalsSplitIntoRefusedBadInputAndLockTimeout() {
        #expect(MigrationRefusal.drift([]).category == .refused)
        #expect(MigrationRefusal.unresolvedFailures([]).category == .refused)
        #expect(MigrationRefusal.missingFile(version: "1", name: "a").category == .refused)
        #expect(MigrationRefusal.irreversible(file: "1_a.sql", reason: "no down").category == .badInput)
        #expect(MigrationRefusal.lockTimeout(waited: .seconds(1)).category == .lockTimeout)
    }

    @Test func inputPlanSeedAndProvisioningErrorsHaveTheirCategory() {
        #expect(MigrationInputError.folderMissing(folder: "m").category == .badInput)
        #expect(AccessPlanError(file: "p.yml", line: 1, message: "x").category == .badInput)
        #expect(SeedError(file: "s.sql", message: "unreadable").category == .badInput)
        #expect(SeedError(file: "s.sql", line: 1, underlying: PGError(kind: .server, message: "x")).category == .sqlFailed)
        #expect(ProvisioningError.binariesMissing(searched: []).category == .unavailable)
        #expect(PgTAPError.notInstalled(package: "postgresql-15-pgtap").category == .unavailable)
    }

    @Test func misuseIsItsOwnErrorAndATransactionErrorKeepsItsCause() {
        let misuse = APIMisuse("a transaction is already open")
        #expect(misuse.category == .misuse)
        #expect(TransactionError(phase: .commit, underlying: misuse).category == .misuse)
        #expect(TransactionError(phase: .begin, underlying: CocoaError(.fileNoSuchFile)).category == .sqlFailed)
        #expect((misuse as Error).wardenCategory == .misuse)
    }
}
