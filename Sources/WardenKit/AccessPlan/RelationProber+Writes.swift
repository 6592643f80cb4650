import WardenPostgres

extension RelationProber {
    /// Update or delete probes: own row, another user's row, and (update) moving an
    /// own row to another owner.
    func queueRowWrites(_ persona: Persona, _ scope: Scope, operation: AccessOperation, _ truth: RelationTruth,
                        _ batch: ProbeBatch) throws -> [Pending] {
        var pending: [Pending] = []
        let verb = operation.rawValue
        if plan.owner != nil, persona.user != nil {
            let own = truth.row(.own(persona.name))
            let other = truth.row(.notOwn(persona.name))
            let ownWrite = write(persona, scope, operation, "\(verb) own row", row: own, ownsIt: true, batch,
                                 missing: missingRowReason(persona, own: true, truth))
            pending.append(ownWrite)
            pending.append(write(persona, scope, operation, "\(verb) another user's row", row: other, ownsIt: false, batch,
                                 missing: missingRowReason(persona, own: false, truth)))
            if operation == .update {
                pending.append(try queueMove(persona, scope, row: own, truth, batch, ownUpdate: ownWrite))
            }
        } else if plan.owner != nil {
            // A user's row: the first signed-in persona's own, else one that is not its
            // own (a table whose row is a privilege holds only someone else's), or, with
            // none signed in (a sign-up trigger refused them), any row, all of which are
            // some user's.
            let row = context.someUser.flatMap { truth.row(.own($0.name)) ?? truth.row(.notOwn($0.name)) }
                ?? truth.row(.any(persona.name))
            pending.append(write(persona, scope, operation, "\(verb) a user's row", row: row, ownsIt: false, batch))
        } else {
            let row = truth.row(.any(persona.name))
            pending.append(write(persona, scope, operation, "\(verb) a row", row: row, ownsIt: true, batch))
        }
        return pending
    }

    private func write(_ persona: Persona, _ scope: Scope, _ operation: AccessOperation, _ label: String,
                       row: String?, ownsIt: Bool, _ batch: ProbeBatch, missing reason: String? = nil) -> Pending {
        let expectAllowed = scope == .all || (scope == .own && ownsIt)
        guard let row else {
            let missing = missingRow(persona, operation, label, expectAllowed: expectAllowed, scope: scope, reason: reason)
            return { missing }
        }
        let sql: SQL
        if operation == .delete {
            sql = "delete from \(table) where \(whereRow(row))"
        } else {
            // A column the persona's role may update: PostgREST's PATCH writes only the
            // columns it is sent, so one column's grant (`grant update (caption)`) lets
            // the policy decide; the first column refused that update with 42501.
            let column = relation.updatableColumn[persona.role] ?? relation.assignableColumns.first ?? relation.columns.first ?? "id"
            sql = "update \(table) set \(identifier: column) = \(identifier: column) where \(whereRow(row))"
        }
        let request = context.request(persona).routed(operation == .delete ? "DELETE" : "PATCH", "/\(plan.name)", schema: plan.schema)
        let read = SealedProbe(context, request, statement: sql).queue(batch)
        return {
            let outcome = try read()
            return refusedByOwnCode(persona, operation, label, expectAllowed: expectAllowed, scope: scope, outcome: outcome)
                ?? verdict(persona, operation, label, expectAllowed: expectAllowed, scope: scope, outcome: outcome)
        }
    }

    /// The database's own code refused the write with an exception (a trigger: `raise
    /// exception 'locked documents cannot be deleted'`, P0001): the row is as it was,
    /// which is what a refused update or delete means, and no row was inserted (`only one
    /// wish per user`). Only where the plan refuses it, and not where it asks for 42501
    /// (`denied`); a plan that allows it still fails, naming the error. Nil for any
    /// other outcome. `kept` says what the refusal left as it was.
    ///
    /// A cascade that a rule turns away is the database's own code too: a delete whose
    /// foreign key cascades into an append-only table (`create rule ... as on delete to
    /// audit_log do instead nothing`) fails with XX000, "referential integrity query on
    /// ... gave unexpected result" (PostgreSQL's `ri_triggers.c`, hinting at the rule),
    /// for every client: it was an ERROR line, and a drafted plan failed its own run.
    func refusedByOwnCode(_ persona: Persona, _ operation: AccessOperation, _ label: String, expectAllowed: Bool,
                          scope: Scope, outcome: ProbeOutcome, kept: String = "the row is as it was") -> ProbeResult? {
        guard !expectAllowed, scope != .denied, case .error(let state, let message) = outcome,
              state == SQLState.raiseException.rawValue
                || (state == "XX000" && message.hasPrefix("referential integrity query on ")) else {
            return nil
        }
        let refused: ProbeOutcome = operation == .insert ? .denied(message: message) : .rows(0)
        var result = verdict(persona, operation, label, expectAllowed: false, scope: scope, outcome: refused)
        result.observed = DraftObservation.refusedByOwnCode + "\(state): \(message)): \(kept)"
        return result
    }

    /// Tries to give an own row to another user by writing that user's values into
    /// the ownership columns (the sample columns whose values differ between users).
    private func queueMove(_ persona: Persona, _ scope: Scope, row: String?, _ truth: RelationTruth,
                           _ batch: ProbeBatch, ownUpdate: @escaping Pending) throws -> Pending {
        let label = "move own row to another user"
        let expectAllowed = scope == .all
        guard let other = context.otherUser(than: persona) else {
            let result = ProbeResult(
                subjectKind: .relation, subject: plan.qualifiedName, persona: persona.name, operation: .update,
                probe: label, expected: expectation(expectAllowed, scope),
                observed: "cannot probe: the plan has no second signed-in persona", passed: false)
            return { result }
        }
        guard let row else {
            let missing = missingRow(persona, .update, label, expectAllowed: expectAllowed, scope: scope,
                                     reason: missingRowReason(persona, own: true, truth))
            return { missing }
        }
        // A sample that fails as either user (a helper reading a materialized view never
        // refreshed, 55000) is this cell's to report, as an insert's is: it stopped the
        // whole run (an LMS's `dev`, exit 1, round thirty-five).
        let mine: [String?], theirs: [String?]
        switch (try truth.sample(as: persona), try truth.sample(as: other)) {
        case (.success(let own), .success(let others)): (mine, theirs) = (own, others)
        case (.failure(let error), _), (_, .failure(let error)):
            let failed = result(persona, .update, label, expected: expectation(expectAllowed, scope),
                                observed: "the plan's sample could not be evaluated: \(error.message)", passed: false)
            return { failed }
        }
        let changed = plan.sample.indices.filter { mine[$0] != theirs[$0] }
        guard !changed.isEmpty else {
            return {
                // No ownership column to write (ownership through another table, say): a
                // move is an update of the own row, so when that update is refused (no
                // row affected: the policy hides the row from every update; or 42501),
                // the move is refused with it.
                let own = try ownUpdate()
                let refusal: ProbeOutcome? = own.observed == "0 rows" ? .rows(0)
                    : own.observed.hasPrefix("denied (42501") ? .denied(message: own.observed) : nil
                // The own update went through, but the owner rule names no column an
                // update may write (`id in (select org_id from members where user_id =
                // auth.uid())`, id an identity), or only a key that the link tables it
                // names hold (`id in (select kid_id from parent_kids ...)`, the link's
                // foreign key keeping the row's id or following it): no update of this
                // table moves the row.
                if refusal == nil, let owner = plan.owner, !Self.names(anyOf: movingColumns(owner), in: owner) {
                    var result = verdict(persona, .update, label, expectAllowed: expectAllowed, scope: scope, outcome: .rows(0))
                    let held = Self.names(anyOf: relation.assignableColumns, in: owner)
                        ? ", but a key that tables it names hold by their foreign keys" : ""
                    result.observed = "refused: the owner rule reads no column an update may write\(held), so updating the row "
                        + "cannot give it to another user (the own update: \(own.observed))"
                    return result
                }
                guard let refusal else {
                    return ProbeResult(
                        subjectKind: .relation, subject: plan.qualifiedName, persona: persona.name, operation: .update,
                        probe: label, expected: expectation(expectAllowed, scope),
                        observed: "cannot probe: the sample gives both users the same values, so it names no ownership column",
                        passed: false)
                }
                var result = verdict(persona, .update, label, expectAllowed: expectAllowed, scope: scope, outcome: refusal)
                result.observed = "refused, as updating the own row is (\(own.observed)); the sample names no ownership column to move it by"
                return result
            }
        }
        let assignments = SQL.joined(
            changed.map { "\(identifier: plan.sample[$0].column) = \(theirs[$0])" }, separator: ", ")
        let sql: SQL = "update \(table) set \(assignments) where \(whereRow(row))"
        let request = context.request(persona).routed("PATCH", "/\(plan.name)", schema: plan.schema)
        let read = SealedProbe(context, request, statement: sql).queue(batch)
        return {
            let outcome = try read()
            // A trigger guarding the owner column (`raise exception`, P0001): the row
            // stays its owner's, which is what a refused move means.
            return refusedByOwnCode(
                persona, .update, label, expectAllowed: expectAllowed, scope: scope, outcome: outcome,
                kept: "the row stayed its owner's")
                ?? verdict(persona, .update, label, expectAllowed: expectAllowed, scope: scope, outcome: outcome)
        }
    }

    /// The columns an update may write to give a row to another user under `owner`:
    /// those it may write, but a key that a table the rule names references by a
    /// foreign key that keeps it (`keyColumnsHeldBy`): the row's own link keeps
    /// pointing at it, whatever the update writes (a new key is refused or followed;
    /// another row's collides).
    private func movingColumns(_ owner: String) -> [String] {
        relation.assignableColumns.filter { column in
            !(relation.keyColumnsHeldBy[column] ?? []).contains { Self.names(anyOf: [$0], in: owner) }
        }
    }

    /// Whether `expression` names any of `columns` as a word (an identifier, quoted or
    /// not; a column of another table with the same name counts too: then a move is not
    /// ruled out).
    static func names(anyOf columns: [String], in expression: String) -> Bool {
        let words = Set(expression.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "$") }.map(String.init))
        return columns.contains { words.contains($0) || words.contains($0.lowercased()) }
    }

    private func missingRow(_ persona: Persona, _ operation: AccessOperation, _ label: String,
                            expectAllowed: Bool, scope: Scope, reason: String? = nil) -> ProbeResult {
        ProbeResult(
            subjectKind: .relation, subject: plan.qualifiedName, persona: persona.name, operation: operation,
            probe: label, expected: expectation(expectAllowed, scope),
            observed: "cannot probe: " + (reason
                ?? "there is no such row in \(plan.qualifiedName); give the personas rows in the plan's setup"),
            passed: false)
    }

    /// How a cell's "cannot probe" ends where the owner rule holds for none of the
    /// table's rows as the persona (`plan draft` reads it).
    static let noOwnRowAdvice = "give the persona a row of its own in the plan's setup"

    /// Why there is no own row (`own`) or no other user's row to write, where the table
    /// has rows: the owner rule holds for none of them as the persona, or for every one
    /// (a rule through a helper that ignores the row: "give the personas rows" misled,
    /// the setup had given them). Nil when the table has no row (then rows are missing).
    private func missingRowReason(_ persona: Persona, own: Bool, _ truth: RelationTruth) -> String? {
        guard let rule = plan.owner, let digests = truth.digests[persona.name],
              let all = digests.all.first.flatMap({ $0 }).flatMap({ Int($0) }), all > 0,
              let owned = digests.own?.first.flatMap({ $0 }).flatMap({ Int($0) }) else { return nil }
        let rows = "\(all) row\(all == 1 ? "" : "s")"
        if own && owned == 0 {
            let none = all == 1 ? "does not hold for the one row" : "holds for none of the \(rows)"
            return "the owner rule (\(rule)) \(none) of \(plan.qualifiedName) as \(persona.name); "
                + Self.noOwnRowAdvice
        }
        if !own && owned == all {
            return "the owner rule (\(rule)) holds for every one of the \(rows) of \(plan.qualifiedName) as \(persona.name), "
                + "so no row is another user's; an owner rule must single out the persona's own rows"
        }
        return nil
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
