/// The first answer before there is a plan (`test` and `dev` without an access-plan
/// file): the access matrix as `plan draft` observes it, the dangers a reviewer would
/// flag first (the draft's DANGER cells and `pgwarden lint`'s dangers, with what the
/// probes showed), and one line on how to start a plan.
package struct ObservedAccessReport {
    package let draft: PlanDraft
    /// The plan file that does not exist (for the messages).
    package let planFile: String

    package init(_ draft: PlanDraft, planFile: String) {
        self.draft = draft
        self.planFile = planFile
    }

    /// Cell dangers and lint dangers, one line each (evidence indented under its finding).
    package var dangerLines: [String] {
        draft.dangerCells.map { "DANGER \($0)" } + draft.findings.dangers.flatMap { finding in
            ["DANGER \(finding.rule.rawValue) \(finding.subject): \(finding.detail)"]
                + (finding.consequence?.evidence ?? []).map { "  probe: \($0)" }
        }
    }

    /// The line before the matrix.
    package var heading: String {
        "no access plan (\(planFile)): what the database allows now, observed as anon, two signed-in users (ava, ben) and service_role"
    }

    /// The line after it.
    package var nextStep: String {
        "start a plan from this: pgwarden plan draft --output \(planFile), review every DANGER, then pgwarden test"
    }

    /// Heading, matrix, dangers and the next step.
    package func render() -> String {
        let dangers = dangerLines
        var matrix = MatrixReport(draft.report)
        matrix.isObservation = true
        return ([heading, "", matrix.render(), ""]
            + (dangers.isEmpty ? ["no dangers found"] : dangers) + [nextStep]).joined(separator: "\n")
    }
}
