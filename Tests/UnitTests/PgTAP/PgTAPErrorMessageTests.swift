import Testing
import WardenPostgres
@testable import WardenKit

/// How a SQL error that stopped a pgTAP file is told.
@Suite struct PgTAPErrorMessageTests {
    private func missing(_ name: String) -> PGError {
        PGError(kind: .server, message: "extension \"\(name)\" is not available", sqlState: .featureNotSupported,
                detail: "Could not open extension control file \"/usr/share/postgresql/15/extension/\(name).control\": No such file or directory.")
    }

    /// Supabase's testing guide starts the suite with a file that installs the test
    /// helpers through dbdev (pg_tle, and a download from database.dev): the hint says
    /// what works locally instead, and does not talk of migrations.
    @Test func pgTleMissingInATestFileSaysHowToGetTheHelpersLocally() {
        let message = PgTAPRunner.message(missing("pg_tle"))
        #expect(message.contains("0A000: extension \"pg_tle\" is not available"), "\(message)")
        #expect(message.contains("dbdev"), "\(message)")
        #expect(message.contains("00000-supabase_test_helpers.sql"), "\(message)")
        #expect(!message.contains("migrations"), "\(message)")
    }

    /// Another missing extension keeps the usual hint.
    @Test func anotherMissingExtensionKeepsItsHint() {
        let message = PgTAPRunner.message(missing("vector"))
        #expect(message.contains("postgresql-15-pgvector"), "\(message)")
        #expect(!message.contains("dbdev"), "\(message)")
    }
}
