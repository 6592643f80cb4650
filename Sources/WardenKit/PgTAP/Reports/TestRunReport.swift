/// Everything `pgwarden test` found: the access plan's probes (when there is a plan)
/// and the test suites (pgTAP files). Renderers for every report format take this;
/// with no suites they give exactly the access plan's own reports.
package struct TestRunReport: Sendable {
    package var accessPlan: AccessPlanReport?
    /// The plan that was run (for the file lines of GitHub annotations).
    package var plan: AccessPlan?
    package var suites: [TestSuiteResult]

    package init(accessPlan: AccessPlanReport?, plan: AccessPlan?, suites: [TestSuiteResult]) {
        self.accessPlan = accessPlan
        self.plan = plan
        self.suites = suites
    }

    /// True when every probe and every test case held (TODO and SKIP never fail).
    package var passed: Bool { (accessPlan?.passed ?? true) && suites.allSatisfy(\.passed) }

    /// `pgTAP: 3 files, 14 assertions, 13 passed, 1 failed, 0 skipped or todo (52 ms)`.
    package var suiteSummary: String {
        let cases = suites.flatMap(\.cases)
        let failed = cases.filter { $0.status == .failed }.count
        let passedCount = cases.filter { $0.status == .passed }.count
        let milliseconds = suites.reduce(Duration.zero) { $0 + $1.duration }.inSeconds * 1000
        return "pgTAP: \(suites.count) file\(suites.count == 1 ? "" : "s"), \(cases.count) assertions, "
            + "\(passedCount) passed, \(failed) failed, \(cases.count - passedCount - failed) skipped or todo"
            + " (\(Int(milliseconds.rounded())) ms)"
    }

    /// `file:line` (or the file alone) for a case of `suite`.
    static func place(_ suite: TestSuiteResult, _ testCase: TestCaseResult) -> String {
        testCase.line.map { "\(suite.file):\($0)" } ?? suite.file
    }

    /// The mark the text reports show for a status.
    static func mark(_ status: TestCaseResult.Status) -> String {
        switch status {
        case .passed: return "✓"
        case .failed: return "✗"
        case .skipped: return "-"
        case .todo: return "?"
        }
    }

    /// `TODO reason` / `SKIP reason`, or nil.
    static func directive(_ testCase: TestCaseResult) -> String? {
        switch testCase.status {
        case .todo: return "TODO" + (testCase.reason.map { $0.isEmpty ? "" : " \($0)" } ?? "")
        case .skipped: return "SKIP" + (testCase.reason.map { $0.isEmpty ? "" : " \($0)" } ?? "")
        case .passed, .failed: return nil
        }
    }
}
