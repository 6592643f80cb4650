import Testing
@testable import WardenKit

/// How a probe's outcome reads in a report: an error the API would answer says what it
/// usually means where that is one thing (a policy recursing through a function until
/// the stack ran out, 54001: a real project's 13 relations, each probe a third of a
/// second, with only "stack depth limit exceeded" to go on).
@Suite struct ProbeOutcomeSummaryTests {
    @Test func aStackDepthErrorSaysWhichFunctionToMakeSecurityDefiner() {
        let summary = ProbeOutcome.error(sqlState: "54001", message: "stack depth limit exceeded").summary
        #expect(summary.hasPrefix("error 54001: stack depth limit exceeded (a policy calls a function"), "\(summary)")
        #expect(summary.contains("make that function security definer"), "\(summary)")
    }

    @Test func otherErrorsAreTheServersWordsAlone() {
        #expect(ProbeOutcome.error(sqlState: "22P02", message: "invalid input syntax for type uuid").summary
            == "error 22P02: invalid input syntax for type uuid")
        #expect(ProbeOutcome.denied(message: "permission denied for table notes").summary
            == "denied (42501: permission denied for table notes)")
    }
}
