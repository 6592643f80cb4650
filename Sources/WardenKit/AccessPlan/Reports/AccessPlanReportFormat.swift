/// The formats an `AccessPlanReport` renders to: what `pgwarden test --format` writes.
public enum AccessPlanReportFormat: String, Sendable, CaseIterable {
    /// The readable matrix (relations and functions down, personas across), then the failures.
    case matrix
    /// GitHub-flavoured Markdown, for a CI job summary.
    case markdown
    /// JUnit XML, one test case per probe.
    case junit
    /// TAP version 13, one line per probe.
    case tap
    /// JSON: the plan, the access it declares and every probe.
    case json
}

extension AccessPlanReport {
    /// The report as text in `format` (plain text: no terminal colours).
    public func rendered(as format: AccessPlanReportFormat) throws -> String {
        switch format {
        case .matrix: return MatrixReport(self).render()
        case .markdown: return MarkdownReport(self).render()
        case .junit: return MachineReports.junit(self)
        case .tap: return MachineReports.tap(self)
        case .json: return MachineReports.json(self)
        }
    }
}
