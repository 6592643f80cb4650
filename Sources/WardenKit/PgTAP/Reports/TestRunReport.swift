/// Everything `pgwarden test` found: the access plan's probes (when there is a plan)
/// and the test suites (pgTAP files). Renderers for every report format take this;
/// with no suites they give exactly the access plan's own reports.
///
/// ```swift
/// let report = try plan.prove(on: connection)
/// let suites = try PgTAPSuite(folder: "supabase/tests").run(on: connection)
/// let run = TestRunReport(accessPlan: report, plan: plan, suites: suites)
/// print(run.text())
/// ```
public struct TestRunReport: Sendable {
    /// The access plan's probes (nil: no plan was proved).
    public let accessPlan: AccessPlanReport?
    /// The plan that was run (for the file lines of GitHub annotations).
    public let plan: AccessPlan?
    /// The pgTAP files' results, in the order they ran.
    public let suites: [TestSuiteResult]

    /// A report of a proof and of test suites; either may be absent.
    public init(accessPlan: AccessPlanReport?, plan: AccessPlan?, suites: [TestSuiteResult]) {
        self.accessPlan = accessPlan
        self.plan = plan
        self.suites = suites
    }

    /// True when every probe and every test case held (TODO and SKIP never fail).
    public var passed: Bool { (accessPlan?.passed ?? true) && suites.allSatisfy(\.passed) }

    /// `pgTAP: 3 files, 14 assertions, 13 passed, 1 failed, 0 skipped or todo (52 ms)`.
    public var suiteSummary: String {
        let cases = suites.flatMap(\.cases)
        let failed = cases.filter { $0.status == .failed }.count
        let passedCount = cases.filter { $0.status == .passed }.count
        let milliseconds = suites.reduce(Duration.zero) { $0 + $1.duration }.inSeconds * 1000
        return "pgTAP: \(counted(suites.count, "file")), \(counted(cases.count, "assertion")), "
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
