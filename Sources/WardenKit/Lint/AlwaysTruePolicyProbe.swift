import WardenPostgres

/// What a write policy that is always true lets a signed-in user (ava) do to rows of
/// another user (ben): insert a row as ben, update or delete ben's rows. Without an
/// owner column, every row is "another user's". (With a plan, its two signed-in users.) A
/// probe refused by anything but a privilege or a policy (a NOT NULL the probe's row
/// broke) proves nothing either way: then it is "not probed", never "harmless".
struct AlwaysTruePolicyProbe {
    let context: ProbeContext
    let finding: LintFinding
    let ownership: DraftOwnership

    func run() throws -> LintConsequence {
        guard let ava = context.userName else {
            return LintConsequence(verdict: .notProbed, evidence: [ProbeContext.leftOutEvidence])
        }
        let benName = context.otherUserName
        let table = finding.subject
        let quoted = ConsequenceProber.quoted(finding)
        let owner = ownership.ownerColumn(of: table).map(DraftOwnership.sqlName)
        let others = owner.map { "\($0) is distinct from auth.uid()" } ?? "true"
        let whose = owner == nil ? "" : " owned by another user"
        var evidence: [String] = []
        var proven = false
        // SQLSTATEs of refusals that were not a privilege's or a policy's (a NOT NULL
        // or foreign key the probe's row broke): the policy itself was not tried.
        var untried: [String] = []
        func refused(_ error: PGError) {
            if error.sqlState != .insufficientPrivilege { untried.append(error.sqlState?.rawValue ?? "error") }
        }
        if let benName, let ben = context.userIDs[benName] {
            let sample = ownership.sample(of: table)
            if !sample.isEmpty {
                let columns = sample.map { DraftOwnership.sqlName($0.column) }.joined(separator: ", ")
                let values = sample.map { $0.expression.replacingOccurrences(of: "auth.uid()", with: "'\(ben)'::uuid") }
                let sql = "insert into \(quoted) (\(columns)) values (\(values.joined(separator: ", ")))"
                switch try context.asPersona(ava, "POST", on: finding, sql) {
                case .rows:
                    proven = true
                    evidence.append("\(ava) inserted a row of \(table)\(owner == nil ? "" : " owned by \(benName)")")
                case .refused(let error):
                    refused(error)
                    evidence.append("\(ava)'s insert into \(table)\(owner == nil ? "" : " as \(benName)"): refused (\(PersonaOutcome.describe(error)))")
                }
            }
        }
        for (verb, method, sql) in [
            ("updated", "PATCH", "with changed as (update \(quoted) set \(owner ?? firstColumn()) = \(owner ?? firstColumn()) where \(others) returning 1) select count(*)::text from changed"),
            ("deleted", "DELETE", "with changed as (delete from \(quoted) where \(others) returning 1) select count(*)::text from changed"),
        ] {
            switch try context.asPersona(ava, method, on: finding, sql) {
            case .rows(let rows):
                let count = Int(rows.first?.first.flatMap { $0 } ?? "0") ?? 0
                if count > 0 { proven = true }
                evidence.append("\(ava) \(verb) \(count) row\(count == 1 ? "" : "s") of \(table)\(whose)")
            case .refused(let error):
                refused(error)
                evidence.append("\(ava)'s \(verb == "updated" ? "update" : "delete") of \(table): refused (\(PersonaOutcome.describe(error)))")
            }
        }
        // Without the other user, there may be no row of theirs to try: not harmless.
        if !proven && benName == nil && owner != nil {
            return LintConsequence(verdict: .notProbed, evidence: evidence + [ProbeContext.leftOutEvidence])
        }
        if !proven && !untried.isEmpty {
            return LintConsequence(verdict: .notProbed, evidence: evidence + [
                "refused by \(untried.joined(separator: ", ")), not by a privilege or a policy: the probe's row broke a "
                    + "constraint, so the policy itself was not tried",
            ])
        }
        return LintConsequence(verdict: proven ? .proven : .harmless, evidence: evidence, personas: proven ? [ava] : [])
    }

    /// A column an update can set to itself: not a GENERATED ALWAYS identity or a
    /// generated column (setting those is refused, 428C9, which would hide the policy).
    private func firstColumn() -> String {
        DraftOwnership.sqlName(ownership.catalog.columns[finding.subject]?.first(where: \.writable)?.name ?? "ctid")
    }
}
