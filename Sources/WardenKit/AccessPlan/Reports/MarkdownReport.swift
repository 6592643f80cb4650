/// The matrix as GitHub-flavoured Markdown, for a pull request's job summary
/// (`$GITHUB_STEP_SUMMARY`) or any CI system that shows Markdown: a table of
/// relations and functions by persona, the checks, and every failure.
package struct MarkdownReport {
    package let report: AccessPlanReport

    package init(_ report: AccessPlanReport) { self.report = report }

    package func render() -> String {
        let matrix = MatrixReport(report)
        let personas = report.personas.map(\.name)
        var lines = ["### \(report.passed ? "✅" : "❌") \(Self.cell(matrix.summary))", ""]
        lines.append("| relation | " + personas.map(Self.cell).joined(separator: " | ") + " |")
        lines.append("| --- |" + String(repeating: " --- |", count: personas.count))
        for relation in report.relations {
            let cells = personas.map { "`\(matrix.relationCell(relation, $0))`" }
            lines.append("| `\(Self.cell(relation))` | " + cells.joined(separator: " | ") + " |")
        }
        if !report.functions.isEmpty {
            lines += ["", "| function | " + personas.map(Self.cell).joined(separator: " | ") + " |"]
            lines.append("| --- |" + String(repeating: " --- |", count: personas.count))
            for function in report.functions {
                let cells = personas.map { "`\(matrix.functionCell(function, $0))`" }
                lines.append("| `\(Self.cell(function))` | " + cells.joined(separator: " | ") + " |")
            }
        }
        let checks = report.results.filter { $0.subjectKind == .check }
        if !checks.isEmpty {
            lines.append("")
            lines += checks.map { "- \($0.passed ? "✓" : "✗") check: \(Self.cell($0.subject)) (as \($0.persona ?? "?"))" }
        }
        lines += ["", "S I U D = select insert update delete: capital all rows, small own rows, ~ some rows, x refused, · none"]
        if !report.failures.isEmpty {
            lines += ["", "| failing probe | expected | observed |", "| --- | --- | --- |"]
            lines += report.failures.map { "| \(Self.cell($0.name)) | \(Self.cell($0.expected)) | \(Self.cell($0.observed)) |" }
        }
        return lines.joined(separator: "\n")
    }

    /// Table-safe text: pipes escaped, line breaks as spaces.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\r\n", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
    }
}
