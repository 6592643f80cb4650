/// The readable reports: the terminal text and Markdown (for a CI job summary).
extension TestRunReport {
    /// The access-plan matrix (when there is a plan), then every suite with every
    /// assertion, the failures with their file and line, and the summaries.
    public func text() -> String {
        var sections: [String] = []
        if let accessPlan { sections.append(MatrixReport(accessPlan).render()) }
        if !suites.isEmpty { sections.append(suitesText()) }
        return sections.joined(separator: "\n\n")
    }

    func suitesText() -> String {
        var lines: [String] = []
        for suite in suites {
            let failed = suite.failures.count
            let verdict = failed == 0
                ? "\(suite.cases.count) assertion\(suite.cases.count == 1 ? "" : "s")"
                : "\(failed) of \(suite.cases.count) failed"
            lines.append("\(suite.passed ? "✓" : "✗") \(suite.file)  \(verdict) (\(suite.duration.wholeMilliseconds) ms)")
            for testCase in suite.cases {
                var line = "    \(Self.mark(testCase.status)) \(testCase.name)"
                if let directive = Self.directive(testCase) { line += " # \(directive)" }
                lines.append(line)
                if testCase.status == .failed {
                    lines += testCase.diagnostics.map { "        \($0)" }
                }
            }
        }
        let failures = suites.failures
        if !failures.isEmpty {
            lines += ["", "Failures:"]
            lines += failures.map { "  ✗ \(Self.place($0.suite, $0.failure)): \(Self.withoutDetailAndHint($0.failure.name))" }
        }
        lines += ["", suiteSummary]
        return lines.joined(separator: "\n")
    }

    /// A SQL error's text for the summary of failures: its file's line above already
    /// gave the server's detail and the hint (a missing extension's, five lines long,
    /// was printed twice for every file that failed on it).
    static func withoutDetailAndHint(_ name: String) -> String {
        guard let cut = [" (detail: ", " (hint: "].compactMap({ name.range(of: $0)?.lowerBound }).min() else { return name }
        return name[..<cut] + " (detail and hint above)"
    }

    /// The access plan's Markdown (when there is a plan), then a table of the files,
    /// the failing assertions, and every assertion in a collapsed list.
    public func markdown() -> String {
        var sections: [String] = []
        if let accessPlan { sections.append(MarkdownReport(accessPlan).render()) }
        guard !suites.isEmpty else { return sections.joined(separator: "\n\n") }
        let cell = MarkdownReport.cell
        var lines = ["### \(suites.allSatisfy(\.passed) ? "✅" : "❌") \(cell(suiteSummary))", ""]
        lines += ["| file | assertions | passed | failed | skipped or todo |", "| --- | --- | --- | --- | --- |"]
        for suite in suites {
            let passedCount = suite.cases.filter { $0.status == .passed }.count
            let failed = suite.failures.count
            lines.append("| `\(cell(suite.file))` | \(suite.cases.count) | \(passedCount) | \(failed) | "
                + "\(suite.cases.count - passedCount - failed) |")
        }
        let failures = suites.failures
        if !failures.isEmpty {
            lines += ["", "| failing assertion | where | diagnostics |", "| --- | --- | --- |"]
            lines += failures.map {
                "| \(cell($0.failure.name)) | `\(cell(Self.place($0.suite, $0.failure)))` | "
                    + "\(cell($0.failure.diagnostics.joined(separator: "; "))) |"
            }
        }
        lines += ["", "<details><summary>every assertion</summary>", ""]
        for suite in suites {
            lines.append("- `\(cell(suite.file))`")
            for testCase in suite.cases {
                let directive = Self.directive(testCase).map { " (\(cell($0)))" } ?? ""
                lines.append("  - \(Self.mark(testCase.status)) \(cell(testCase.name))\(directive)")
            }
        }
        lines += ["", "</details>"]
        sections.append(lines.joined(separator: "\n"))
        return sections.joined(separator: "\n\n")
    }
}
