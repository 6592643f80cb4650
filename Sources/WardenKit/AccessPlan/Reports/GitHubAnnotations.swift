/// GitHub Actions workflow commands for a run: one `::error file=...,line=...::`
/// annotation per failing probe, placed on the plan line of the relation, function
/// or check it belongs to (the plan file itself when it has no line, e.g. an
/// unplanned relation).
///
/// Escaping as GitHub's workflow-command parser expects (actions/toolkit
/// `command.ts`; https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions):
/// `%`, CR and LF in the message; also `:` and `,` in property values.
package struct GitHubAnnotations {
    package let report: AccessPlanReport
    package let plan: AccessPlan

    package init(_ report: AccessPlanReport, plan: AccessPlan) {
        self.report = report
        self.plan = plan
    }

    /// One line per failing probe; empty when everything held.
    package func render() -> String {
        report.failures.map { failure in
            var properties = ["file=\(Self.property(plan.source))"]
            if let line = line(of: failure) { properties.append("line=\(line)") }
            properties.append("title=\(Self.property("access plan: \(failure.subject)"))")
            let message = "\(failure.name): expected \(failure.expected); observed \(failure.observed)"
            return "::error \(properties.joined(separator: ","))::\(Self.data(message))"
        }.joined(separator: "\n")
    }

    /// The plan line a result belongs to.
    func line(of result: ProbeResult) -> Int? {
        let line: Int?
        switch result.subjectKind {
        case .relation: line = plan.relations.first { $0.qualifiedName == result.subject }?.line
        case .function: line = plan.functions.first { $0.signature == result.subject }?.line
        case .check: line = plan.checks.first { $0.name == result.subject }?.line
        }
        return line.flatMap { $0 > 0 ? $0 : nil }
    }

    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
