/// The first answer before there is a plan (`test` and `dev` without an access-plan
/// file): the access matrix as `plan draft` observes it, the dangers a reviewer would
/// flag first (the draft's DANGER cells and `pgwarden lint`'s dangers, with what the
/// probes showed), and one line on how to start a plan.
public struct ObservedAccessReport {
    /// What was observed.
    public let draft: PlanDraft
    /// The plan file that does not exist (for the messages).
    public let planFile: String

    /// The report of a draft, for a project whose plan file (`planFile`) does not exist.
    public init(_ draft: PlanDraft, planFile: String) {
        self.draft = draft
        self.planFile = planFile
    }

    /// Cell dangers and lint dangers, one line each (evidence indented under its finding).
    public var dangerLines: [String] {
        draft.dangerCells.map { "DANGER \($0)" } + draft.findings.dangers.flatMap { finding in
            ["DANGER \(finding.rule.rawValue) \(finding.subject): \(finding.detail)"]
                + (finding.consequence?.evidence ?? []).map { "  probe: \($0)" }
        }
    }

    /// The line before the matrix.
    public var heading: String {
        "no access plan (\(planFile)): what the database allows now, observed as anon, two signed-in users (ava, ben) and service_role"
    }

    /// The line after it.
    public var nextStep: String {
        "start a plan from this: pgwarden plan draft --output \(planFile), review every DANGER, then pgwarden test"
    }

    /// Heading, matrix, dangers and the next step.
    public func render() -> String {
        let dangers = dangerLines
        var matrix = MatrixReport(draft.report)
        matrix.isObservation = true
        return ([heading, "", matrix.render(), ""]
            + (dangers.isEmpty ? ["no dangers found"] : dangers) + [nextStep]).joined(separator: "\n")
    }
}
