/// What running one pgTAP file produced: the TAP read from its rows, and the SQL
/// error that stopped it, if one did. Turns into a `TestSuiteResult` the way pg_prove
/// judges a file: every `not ok` without TODO fails, and so does a SQL error, a
/// `Bail out!`, a missing plan, or a plan that does not match the tests that ran.
package struct PgTAPFileOutcome: Sendable {
    /// A SQL error that stopped the file, with the file line it points at.
    package struct Stop: Sendable, Equatable {
        /// The test file's line (for an included statement: the include's).
        package var line: Int
        package var message: String
        /// For a statement of an included file: that file and the line the error points at.
        package var includedFile: String?
        package var includedLine: Int?
        /// What stopped it: a `SQL error`, a `psql error` (a `\gset` without one row), or
        /// a statement `not sent` (psql variables made it more than one statement).
        package var label = "SQL error"

        package init(line: Int, message: String, included: (file: String, line: Int)? = nil) {
            self.line = line
            self.message = message
            includedFile = included?.file
            includedLine = included?.line
        }

        /// `line 4`, or `supabase/tests/_shared/x.sql:3 (included at line 2)`.
        var place: String {
            guard let includedFile, let includedLine else { return "line \(line)" }
            return "\(includedFile):\(includedLine) (included at line \(line))"
        }
    }

    package var file: String
    package var tap = TAPParser()
    package var stop: Stop?
    package var duration: Duration = .zero
    /// Why the file could not run at all (nothing of it was sent).
    package var notRun: PgTAPError?
    /// True when another test file includes it: pg_prove runs it on its own as well.
    package var isIncluded = false

    package init(file: String, notRun: PgTAPError? = nil) {
        self.file = file
        self.notRun = notRun
    }

    /// The file as a suite of test cases.
    package var suite: TestSuiteResult {
        if let notRun {
            return TestSuiteResult(kind: "pgTAP", file: file, cases: [Self.notRunCase(notRun, file: file)], duration: duration)
        }
        var cases = tap.assertions.map(Self.testCase)
        if let stop {
            cases.append(TestCaseResult(
                number: nil, description: "\(stop.label) at \(stop.place): \(stop.message)", line: stop.line,
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
            guard !isIncluded else {
                return "no plan: the file never printed `1..N`; other test files include it, and it runs on its own "
                    + "too, as under pg_prove (which runs every .sql and .pg file of the folder): name a file "
                    + "that is only included otherwise (helper.sql.raw, say)"
            }
            // Nothing of TAP at all: plain SQL checks (`do $$ ... raise ... $$`) that ran
            // without an error, which pg_prove fails the same way.
            guard ran > 0 || !tap.leadingDiagnostics.isEmpty else {
                return "no plan: the file ran without an error but printed no TAP at all: it is not a pgTAP test "
                    + "(pg_prove, and so `supabase test db`, fails it the same way); call plan(N) and pgTAP's assertions, "
                    + "or keep plain SQL checks out of the tests folder"
            }
            return "no plan: the file never printed `1..N` (call plan(N) or no_plan() and finish())"
        }
        guard planned == ran else {
            return "plan: planned \(planned) test\(planned == 1 ? "" : "s") but ran \(ran)"
        }
        return nil
    }

    /// The one case of a file that could not run: what stopped it, at its line when
    /// that is in the file itself.
    static func notRunCase(_ error: PgTAPError, file: String) -> TestCaseResult {
        var text = error.description
        var line: Int?
        if error.file == file, let at = error.line {
            line = at
            text = "line \(at): " + text.dropFirst("\(file):\(at): ".count)
        }
        return TestCaseResult(number: nil, description: "not run: \(text)", line: line, status: .failed)
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
