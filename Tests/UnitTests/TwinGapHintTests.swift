import Testing
import WardenPostgres
@testable import WardenKit

/// Hints for errors that come from this server lacking what Supabase has.
@Suite struct TwinGapHintTests {
    private func error(_ message: String, _ state: SQLState) -> PGError {
        PGError(kind: .server, message: message, sqlState: state, severity: "ERROR")
    }

    @Test func anIntervalScheduleOnAnOldPgCronIsExplained() throws {
        let hint = try #require(TwinGapHint.hint(for: error("invalid schedule: 10 seconds", .invalidParameterValue)))
        #expect(hint.hasPrefix("this server's pg_cron is older than 1.5, which added interval schedules such as '10 seconds'"))
        #expect(TwinGapHint.hint(for: error("invalid schedule: 1 second", .invalidParameterValue)) != nil)
        // Not an interval schedule pg_cron 1.5 takes: no hint.
        #expect(TwinGapHint.hint(for: error("invalid schedule: 61 seconds", .invalidParameterValue)) == nil)
        #expect(TwinGapHint.hint(for: error("invalid schedule: * * *", .invalidParameterValue)) == nil)
        #expect(TwinGapHint.hint(for: error("invalid schedule: 10 seconds", .syntaxError)) == nil)
    }

    @Test func aMissingExtensionKeepsItsHint() throws {
        let missing = PGError(
            kind: .server, message: "extension \"vector\" is not available", sqlState: .featureNotSupported,
            detail: "Could not open extension control file \"/usr/share/postgresql/15/extension/vector.control\": No such file or directory.")
        #expect(TwinGapHint.hint(for: missing)?.contains("postgresql-15-pgvector") == true)
    }
}
