/// GitHub Actions annotations for the access plan (on the plan's lines) and for
/// every failing pgTAP assertion, on its test file and line; escaping as
/// `GitHubAnnotations` does.
extension TestRunReport {
    /// GitHub Actions workflow commands (`::error file=...,line=...::`), one per failed cell or assertion.
    public func githubAnnotations() -> String {
        var lines: [String] = []
        if let accessPlan, let plan {
            let rendered = GitHubAnnotations(accessPlan, plan: plan).render()
            if !rendered.isEmpty { lines.append(rendered) }
        }
        for (suite, failure) in suites.failures {
            var properties = ["file=\(GitHubAnnotations.property(suite.file))"]
            if let line = failure.line { properties.append("line=\(line)") }
            properties.append("title=\(GitHubAnnotations.property("pgTAP: \(failure.name)"))")
            let message = ([failure.name] + failure.diagnostics).joined(separator: "\n")
            lines.append("::error \(properties.joined(separator: ","))::\(GitHubAnnotations.data(message))")
        }
        return lines.joined(separator: "\n")
    }
}
