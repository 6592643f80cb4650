/// Whether an access plan declares what a finding's probe proved: the persona's role
/// (anon, or authenticated for the signed-in ava and ben) is planned to read the
/// view or table, to execute the function, or to write every row the always-true
/// policy lets through. Such a finding is intended, not a danger, unless the plan file
/// still marks the cell `# DANGER` (a draft not yet reviewed: lint went quiet on every
/// danger `plan draft` had found).
struct LintIntent {
    let plan: AccessPlan
    /// The plan's functions by canonical signature (`PlanCatalogCheck` resolved them).
    var functions: [String: FunctionPlan] = [:]

    func judged(_ finding: LintFinding) -> LintFinding {
        // A claim users choose is no cell a plan declares (the hook itself is no request's to call).
        guard finding.rule != .accessTokenHookReadsUserMetadata,
              let consequence = finding.consequence, consequence.verdict == .proven, !consequence.personas.isEmpty,
              !plan.dangerMarkedFindings.contains("\(finding.rule.rawValue) \(finding.subject)") else {
            return finding
        }
        var judged = finding
        judged.intended = consequence.personas.allSatisfy { name in
            declares(finding, role: plan.persona(named: name)?.role ?? Self.role(of: name))
        }
        return judged
    }

    static func role(of draftPersona: String) -> String {
        draftPersona == "anon" ? "anon" : draftPersona == "service" ? "service_role" : "authenticated"
    }

    private func declares(_ finding: LintFinding, role: String) -> Bool {
        let personas = plan.personas.filter { $0.role == role }.map(\.name)
        guard !personas.isEmpty else { return false }
        if let signature = finding.signature {
            let normalized = PlanCatalogCheck.normalized(signature)
            guard let function = functions[signature]
                ?? plan.functions.first(where: { PlanCatalogCheck.normalized($0.signature) == normalized }) else { return false }
            return personas.contains { function.execute[$0] == true && !function.dangerMarked.contains($0) }
        }
        guard let relation = plan.relations.first(where: { $0.schema == finding.schema && $0.name == finding.name }) else {
            return false
        }
        return personas.contains { name in
            guard !relation.dangerMarked.contains(name) else { return false }
            let access = relation.access[name] ?? .nothing
            switch finding.rule {
            case .rlsPolicyAlwaysTrue:
                return [access.insert, access.update, access.delete].contains(.all)
            case .rlsDisabledInPublic, .policyExistsRLSDisabled:
                return access.select == .all
            default:
                return [.all, .own, .someRows].contains(access.select)
            }
        }
    }
}
