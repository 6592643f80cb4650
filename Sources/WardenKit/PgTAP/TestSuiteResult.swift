/// One suite of test cases that a report shows beside the access plan: today, one
/// pgTAP file. This is the join point between test runners and the report renderers
/// (text, JUnit, TAP, JSON, GitHub annotations, Markdown): a runner produces a list of
/// these, the renderers take the list.
public struct TestSuiteResult: Sendable, Equatable {
    /// What ran it, for headings (`pgTAP`).
    public var kind: String
    /// The file, as the user named it (`supabase/tests/rls_test.sql`).
    public var file: String
    /// Every test case, in the order they ran (assertions, then the file's own
    /// failures: a SQL error, a plan that does not match).
    public var cases: [TestCaseResult]
    /// How long the file took.
    public var duration: Duration

    public init(kind: String, file: String, cases: [TestCaseResult], duration: Duration) {
        self.kind = kind
        self.file = file
        self.cases = cases
        self.duration = duration
    }

    /// The cases that failed (a TODO or SKIP never fails).
    public var failures: [TestCaseResult] { cases.filter { $0.status == .failed } }
    /// True when no case failed.
    public var passed: Bool { failures.isEmpty }
}

/// One test case: an assertion, or a failure of the file itself.
public struct TestCaseResult: Sendable, Equatable {
    public enum Status: String, Sendable {
        case passed, failed, skipped, todo
    }

    /// The assertion's number in the TAP stream; nil for a failure of the file itself.
    public var number: Int?
    /// The assertion's description (may be empty), or what went wrong with the file.
    public var description: String
    /// The file line of the statement that produced it.
    public var line: Int?
    public var status: Status
    /// A TODO or SKIP directive's reason.
    public var reason: String?
    /// Diagnostics the test printed after it (`have: ...`, `want: ...`), without `# `.
    public var diagnostics: [String]

    public init(number: Int?, description: String, line: Int?, status: Status, reason: String? = nil,
                diagnostics: [String] = [])
    {
        self.number = number
        self.description = description
        self.line = line
        self.status = status
        self.reason = reason
        self.diagnostics = diagnostics
    }

    /// `3 - users see their own rows`, or the description alone for a file failure.
    public var name: String {
        guard let number else { return description }
        return description.isEmpty ? "\(number)" : "\(number) - \(description)"
    }
}

extension Array where Element == TestSuiteResult {
    /// Every failing case with its suite.
    public var failures: [(suite: TestSuiteResult, failure: TestCaseResult)] {
        flatMap { suite in suite.failures.map { (suite, $0) } }
    }

    /// How many cases ran in all.
    public var caseCount: Int { reduce(0) { $0 + $1.cases.count } }
}
