/// What running one pgTAP file produced: the TAP read from its rows, and the SQL
/// error that stopped it, if one did. Turns into a `TestSuiteResult` the way pg_prove
/// judges a file: every `not ok` without TODO fails, and so does a SQL error, a
/// `Bail out!`, a missing plan, or a plan that does not match the tests that ran.
package struct PgTAPFileOutcome: Sendable {
    /// A SQL error that stopped the file, with the file line it points at.
    package struct Stop: Sendable, Equatable {
        package var line: Int
        package var message: String
    }

    package var file: String
    package var tap = TAPParser()
    package var stop: Stop?
    package var duration: Duration = .zero

    package init(file: String) { self.file = file }

    /// The file as a suite of test cases.
    package var suite: TestSuiteResult {
        var cases = tap.assertions.map(Self.testCase)
        if let stop {
            cases.append(TestCaseResult(
                number: nil, description: "SQL error at line \(stop.line): \(stop.message)", line: stop.line,
                status: .failed))
        }
        if let reason = tap.bailOut {
            cases.append(TestCaseResult(number: nil, description: "Bail out! \(reason)", line: nil, status: .failed))
        }
        if stop == nil, tap.bailOut == nil, let problem = planProblem {
            cases.append(TestCaseResult(
                number: nil, description: problem, line: tap.planLine, status: .failed,
                diagnostics: tap.leadingDiagnostics))
        }
        return TestSuiteResult(kind: "pgTAP", file: file, cases: cases, duration: duration)
    }

    /// Why the plan does not hold, or nil when it does (`1..N` and N tests ran).
    var planProblem: String? {
        let ran = tap.assertions.count
        guard let planned = tap.planned else {
            return "no plan: the file never printed `1..N` (call plan(N) or no_plan() and finish())"
        }
        guard planned == ran else {
            return "plan: planned \(planned) test\(planned == 1 ? "" : "s") but ran \(ran)"
        }
        return nil
    }

    static func testCase(_ assertion: TAPParser.Assertion) -> TestCaseResult {
        let status: TestCaseResult.Status
        var reason: String?
        switch assertion.directive {
        case .todo(let why):
            status = .todo
            reason = why
        case .skip(let why):
            status = .skipped
            reason = why
        case nil:
            status = assertion.ok ? .passed : .failed
        }
        return TestCaseResult(
            number: assertion.number, description: assertion.description, line: assertion.line, status: status,
            reason: reason, diagnostics: assertion.diagnostics)
    }
}
