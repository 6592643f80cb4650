/// The terminal report: a matrix (relations and functions down, personas across),
/// then every failure with expected against observed.
///
/// A relation cell shows select, insert, update, delete as planned: a capital letter
/// for all rows (`S`), a small one for own rows (`s`), `x` for refused, `·` for none;
/// then ✓ when every probe of the cell held, ✗ when one did not.
package struct MatrixReport {
    package let report: AccessPlanReport

    /// The report of an observation (`test`/`dev` without a plan), not of a plan: cells
    /// that could not be stated as a scope are counted, not listed as failures.
    package var isObservation = false

    package init(_ report: AccessPlanReport) { self.report = report }

    /// What an observed check's write did, in a word or two: `went through (1 row)`
    /// for `as expected (UPDATE 1)`, `refused (42501)` for `SQLSTATE 42501`, `holds (the
    /// admin's verify query says so)` for a check its verify decides; a write's own
    /// count where the verify stood beside it (`as expected (UPDATE 1, verify held)`).
    static func observedCheck(_ observed: String) -> String {
        if observed.hasPrefix("SQLSTATE ") { return "refused (\(observed.dropFirst("SQLSTATE ".count)))" }
        if observed == "as expected (verify held)" { return "holds (the admin's verify query says so)" }
        if observed.hasPrefix("0 rows") { return "refused (no row written)" }
        if observed.hasPrefix("as expected ("), let count = observed.split(whereSeparator: { !$0.isNumber }).last.flatMap({ Int($0) }),
           ["INSERT", "UPDATE", "DELETE"].contains(where: observed.contains) {
            return count == 0 ? "refused (no row written)" : "went through (\(count) row\(count == 1 ? "" : "s"))"
        }
        return observed
    }

    package func render() -> String {
        var lines: [String] = []
        let personas = report.personas.map(\.name)
        // Each table as wide as its own names: a 260-character function signature
        // pushed every relation's cells off the screen.
        let relationWidth = max(8, report.relations.map(\.count).max() ?? 8) + 2
        let functionWidth = max(8, report.functions.map(\.count).max() ?? 8) + 2
        let cellWidth = max(9, (personas.map(\.count).max() ?? 0) + 2)
        if report.relations.isEmpty && report.functions.isEmpty {
            lines.append("nothing to probe: no table, view or function in the plan's schemas")
        }
        if !report.relations.isEmpty {
            lines.append(pad("relation", relationWidth) + personas.map { pad($0, cellWidth) }.joined())
        }
        for relation in report.relations {
            let cells = personas.map { persona in pad(relationCell(relation, persona), cellWidth) }
            lines.append(pad(relation, relationWidth) + cells.joined())
        }
        if !report.functions.isEmpty {
            if !report.relations.isEmpty { lines.append("") }
            lines.append(pad("function", functionWidth) + personas.map { pad($0, cellWidth) }.joined())
            for function in report.functions {
                let cells = personas.map { persona in pad(functionCell(function, persona), cellWidth) }
                lines.append(pad(function, functionWidth) + cells.joined())
            }
        }
        let checks = report.results.filter { $0.subjectKind == .check }
        if !checks.isEmpty {
            lines.append("")
            for check in checks {
                // An observation's check is kept as it came out, so ✓ said nothing: what happened does.
                lines.append(isObservation
                    ? "check: \(check.subject) (as \(check.persona ?? "?")): \(Self.observedCheck(check.observed))"
                    : "\(check.passed ? "✓" : "✗") check: \(check.subject) (as \(check.persona ?? "?"))")
            }
        }
        if !report.relations.isEmpty {
            lines.append("")
            lines.append("S I U D = select insert update delete: capital all rows, small own rows, ~ some rows, x refused, · none")
        }
        if !report.failures.isEmpty && !isObservation {
            lines.append("")
            lines.append("Failures:")
            for failure in report.failures { lines.append("  ✗ \(failure.name): expected \(failure.expected); observed \(failure.observed)") }
        }
        if !report.undoableSideEffects.isEmpty {
            lines.append("")
            lines.append("Warning: a probe may have reached what the rollback cannot undo:")
            for effect in report.undoableSideEffects { lines.append("  ! \(effect)") }
        }
        if !report.sessionUserReaders.isEmpty {
            lines.append("")
            lines.append("Note: these read session_user, which is authenticator in a PostgREST request but this run's "
                + "own login in its probes (only a superuser login could change it), so a branch on it may prove something else:")
            for reader in report.sessionUserReaders { lines.append("  ! \(reader)") }
        }
        if let line = StandInExtensions.reportLine(report.standIns) {
            lines.append("")
            lines.append(line)
        }
        lines.append("")
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// `N probes, N passed, N failed (time)`.
    package var summary: String {
        let failed = report.failures.count
        let total = report.results.count
        if isObservation {
            let unobserved = failed == 0 ? "" : "; \(failed) could not be stated as a scope (✗: no row to probe, which a "
                + "plan's setup can give, or access no scope says, such as giving an own row to another user; "
                + "`plan draft` notes each)"
            return "observed: \(total) probes\(unobserved) (\(Int((report.duration.inSeconds * 1000).rounded())) ms)"
        }
        let milliseconds = report.duration.inSeconds * 1000
        return "access plan \(report.planSource): \(total) probes, \(total - failed) passed, \(failed) failed"
            + " (\(Int(milliseconds.rounded())) ms)"
    }

    func relationCell(_ relation: String, _ persona: String) -> String {
        let results = report.results.filter { $0.subject == relation && ($0.persona == persona || $0.persona == nil) }
        let mark = results.allSatisfy(\.passed) ? "✓" : "✗"
        guard let access = report.access[relation]?[persona] else { return "—    \(mark)" }
        let letters = AccessOperation.allCases.map { operation -> String in
            let letter = String(operation.rawValue.prefix(1))
            switch access.scope(of: operation) {
            case .all: return letter.uppercased()
            case .own: return letter
            case .denied: return "x"
            case .nothing: return "·"
            case .someRows: return "~"
            }
        }
        return letters.joined() + " " + mark
    }

    func functionCell(_ function: String, _ persona: String) -> String {
        let results = report.results.filter { $0.subject == function && ($0.persona == persona || $0.persona == nil) }
        let mark = results.allSatisfy(\.passed) ? "✓" : "✗"
        guard let allowed = report.execute[function]?[persona] else { return "— \(mark)" }
        return (allowed ? "exec" : "deny") + " " + mark
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
