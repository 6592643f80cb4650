import WardenPostgres

extension RelationProber {
    /// Update or delete probes: own row, another user's row, and (update) moving an
    /// own row to another owner.
    func probeRowWrites(_ persona: Persona, _ scope: Scope, operation: AccessOperation) throws -> [ProbeResult] {
        var results: [ProbeResult] = []
        let verb = operation.rawValue
        if plan.owner != nil, persona.user != nil {
            let own = try targetRow(ownedBy: persona, owned: true)
            let other = try targetRow(ownedBy: persona, owned: false)
            results.append(try write(persona, scope, operation, "\(verb) own row", row: own, ownsIt: true))
            results.append(try write(persona, scope, operation, "\(verb) another user's row", row: other, ownsIt: false))
            if operation == .update { results.append(try probeMove(persona, scope, row: own)) }
        } else if plan.owner != nil {
            let row = try context.someUser.flatMap { try targetRow(ownedBy: $0, owned: true) }
            results.append(try write(persona, scope, operation, "\(verb) a user's row", row: row, ownsIt: false))
        } else {
            let row = try targetRow(ownedBy: persona, owned: nil)
            results.append(try write(persona, scope, operation, "\(verb) a row", row: row, ownsIt: true))
        }
        return results
    }

    /// The ctid of a row the persona owns (true), does not own (false), or any (nil).
    private func targetRow(ownedBy persona: Persona, owned: Bool?) throws -> String? {
        return try context.connection.rolledBackSavepoint {
            try context.impersonation.setClaims(context.request(persona))
            var condition: SQL = ""
            if let owned, let owner = plan.owner {
                condition = owned ? " where (\(raw: owner))" : " where not coalesce((\(raw: owner)), false)"
            }
            return try context.connection.query("select ctid::text from \(table) r\(condition) limit 1").scalar
        }
    }

    private func write(_ persona: Persona, _ scope: Scope, _ operation: AccessOperation, _ label: String,
                       row: String?, ownsIt: Bool) throws -> ProbeResult {
        let expectAllowed = scope == .all || (scope == .own && ownsIt)
        guard let row else {
            return missingRow(persona, operation, label, expectAllowed: expectAllowed, scope: scope)
        }
        let sql: SQL
        if operation == .delete {
            sql = "delete from \(table) where ctid = \(row)::tid"
        } else {
            let column = relation.assignableColumns.first ?? relation.columns.first ?? "id"
            sql = "update \(table) set \(identifier: column) = \(identifier: column) where ctid = \(row)::tid"
        }
        let outcome = try context.impersonation.probe(context.request(persona).routed(operation == .delete ? "DELETE" : "PATCH", "/\(plan.name)")) {
            try ProbeOutcome.of { try context.connection.query(sql) }
        }
        return verdict(persona, operation, label, expectAllowed: expectAllowed, scope: scope, outcome: outcome)
    }

    /// Tries to give an own row to another user by writing that user's values into
    /// the ownership columns (the sample columns whose values differ between users).
    private func probeMove(_ persona: Persona, _ scope: Scope, row: String?) throws -> ProbeResult {
        let label = "move own row to another user"
        let expectAllowed = scope == .all
        guard let other = context.otherUser(than: persona) else {
            return ProbeResult(
                subjectKind: .relation, subject: plan.qualifiedName, persona: persona.name, operation: .update,
                probe: label, expected: expectation(expectAllowed, scope),
                observed: "cannot probe: the plan has no second signed-in persona", passed: false)
        }
        guard let row else {
            return missingRow(persona, .update, label, expectAllowed: expectAllowed, scope: scope)
        }
        let mine = try sampleValues(as: persona)
        let theirs = try sampleValues(as: other)
        let changed = plan.sample.indices.filter { mine[$0] != theirs[$0] }
        guard !changed.isEmpty else {
            return ProbeResult(
                subjectKind: .relation, subject: plan.qualifiedName, persona: persona.name, operation: .update,
                probe: label, expected: expectation(expectAllowed, scope),
                observed: "cannot probe: the sample gives both users the same values, so it names no ownership column",
                passed: false)
        }
        let assignments = SQL.joined(
            changed.map { "\(identifier: plan.sample[$0].column) = \(theirs[$0])" }, separator: ", ")
        let sql: SQL = "update \(table) set \(assignments) where ctid = \(row)::tid"
        let outcome = try context.impersonation.probe(context.request(persona).routed("PATCH", "/\(plan.name)")) {
            try ProbeOutcome.of { try context.connection.query(sql) }
        }
        return verdict(persona, .update, label, expectAllowed: expectAllowed, scope: scope, outcome: outcome)
    }

    private func missingRow(_ persona: Persona, _ operation: AccessOperation, _ label: String,
                            expectAllowed: Bool, scope: Scope) -> ProbeResult {
        ProbeResult(
            subjectKind: .relation, subject: plan.qualifiedName, persona: persona.name, operation: operation,
            probe: label, expected: expectation(expectAllowed, scope),
            observed: "cannot probe: there is no such row in \(plan.qualifiedName); give the personas rows in the plan's setup",
            passed: false)
    }

    func expectation(_ allowed: Bool, _ scope: Scope) -> String {
        if allowed { return "allowed" }
        return scope == .denied ? "denied (42501)" : "denied (42501, or no row affected)"
    }

    /// Compares what happened with what the plan expects. Allowed: the row was
    /// written, or access control passed and a constraint stopped it. Denied: 42501,
    /// or (update/delete, unless the scope is `denied`) no row affected.
    func verdict(_ persona: Persona, _ operation: AccessOperation, _ label: String, expectAllowed: Bool,
                 scope: Scope, outcome: ProbeOutcome) -> ProbeResult {
        let passed: Bool
        switch outcome {
        case .rows(let count):
            passed = expectAllowed ? count > 0 : (count == 0 && operation != .insert && scope != .denied)
        case .constraint: passed = expectAllowed
        case .denied: passed = !expectAllowed
        case .error: passed = false
        }
        return ProbeResult(
            subjectKind: .relation, subject: plan.qualifiedName, persona: persona.name, operation: operation,
            probe: label, expected: expectation(expectAllowed, scope), observed: outcome.summary, passed: passed)
    }
}
