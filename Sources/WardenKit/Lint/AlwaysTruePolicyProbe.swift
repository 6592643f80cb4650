import WardenPostgres

/// What a write policy that is always true lets a signed-in user (ava) do to rows of
/// another user (ben): insert a row as ben, update or delete ben's rows, give an own
/// row to ben (an update whose WITH CHECK is true lets the owner column change: the row
/// is then ben's, as if ava had inserted it as ben). Without an
/// owner column, every row is "another user's". (With a plan, its two signed-in users.) A
/// probe refused by anything but a privilege or a policy (a NOT NULL the probe's row
/// broke) proves nothing either way: then it is "not probed", never "harmless".
struct AlwaysTruePolicyProbe {
    let context: ProbeContext
    let finding: LintFinding
    let ownership: DraftOwnership
    /// The finding's policy as `LintCatalog` read it (nil: not found, then not probed).
    let policy: LintPolicyRules.Policy?

    func run() throws -> LintConsequence {
        guard let user = context.userName else {
            return LintConsequence(verdict: .notProbed, evidence: [ProbeContext.leftOutEvidence])
        }
        // A policy only for anon is tried as anon: ava's refusal (42501) said nothing of
        // it. Only the writes of the policy's own command are tried: another policy may
        // let the others through.
        guard let policy else { return LintConsequence(verdict: .notProbed, evidence: ["the policy is not in the catalog"]) }
        let (roles, command) = (Set(policy.roles.components(separatedBy: ", ")), policy.command)
        let ava: String
        if roles.contains("public") || roles.contains(context.plan.persona(named: user)?.role ?? "authenticated") {
            ava = user
        } else if let persona = context.plan.personas.first(where: { $0.user == nil && roles.contains($0.role) }) {
            ava = persona.name
        } else {
            return LintConsequence(verdict: .notProbed, evidence: [
                "the policy applies to \(roles.sorted().joined(separator: ", ")), a role no persona acts as",
            ])
        }
        let benName = context.otherUserName
        let table = finding.subject
        let quoted = ConsequenceProber.quoted(finding)
        // A text owner column (`user_id = auth.uid()::text`) too: without it every row
        // was "another user's", ava's own among them, and an update that PostgREST's
        // filter would have kept to the rows she may read was a made-up DANGER.
        let owning = ownership.owningColumn(of: table)
        let owner = owning.map { DraftOwnership.sqlName($0.name) }
        let others = owning.map { "\(DraftOwnership.sqlName($0.name)) is distinct from auth.uid()\($0.cast)" } ?? "true"
        let whose = owner == nil ? "" : " owned by another user"
        var evidence: [String] = []
        var proven = false
        // SQLSTATEs of refusals that were not a privilege's or a policy's (a NOT NULL
        // or foreign key the probe's row broke): the policy itself was not tried.
        var untried: [String] = []
        func refused(_ error: PGError) {
            if error.sqlState != .insufficientPrivilege { untried.append(error.sqlState?.rawValue ?? "error") }
        }
        // A group its members own (`orgs` of `members (org_id, user_id)`), with no column
        // naming a user: a row a user inserts has no member but the one a trigger may make
        // of its inserter, so it is no other user's (any user creating an organisation
        // was a DANGER). Not tried.
        let group = owning == nil ? ownership.groupMembership(of: table) : nil
        var provenAs = ava
        if ["a", "*"].contains(command), let group {
            // But a policy anon meets too lets visitors add rows that are no member's:
            // tried as anon (lint said HARMLESS where dev said "anon may insert", a DANGER).
            if roles.contains("public") || roles.contains("anon"),
               let anon = context.plan.personas.first(where: { $0.user == nil && $0.role == "anon" }) {
                switch try context.asPersona(anon.name, "POST", on: finding, ownership.insertOfTheSample(of: table, into: quoted)) {
                case .rows:
                    (proven, provenAs) = (true, anon.name)
                    evidence.append("\(anon.name) inserted a row of \(table) without signing in")
                case .refused(let error) where Self.brokeAConstraintAfterThePolicy(error, table: table):
                    (proven, provenAs) = (true, anon.name)
                    evidence.append("\(anon.name)'s insert into \(table) passed the policy, then broke a constraint, which is "
                        + "checked after row-level security (\(PersonaOutcome.describe(error)))")
                case .refused(let error):
                    refused(error)
                    evidence.append("\(anon.name)'s insert into \(table): refused (\(PersonaOutcome.describe(error)))")
                }
            }
            evidence.append("\(ava)'s insert into \(table) names no user: its rows are their members' (\(group.table)), "
                + "so a new row is no other user's (not tried)")
        } else if ["a", "*"].contains(command), let benName, context.userIDs[benName] != nil,
                  let benPersona = context.plan.persona(named: benName) {
            let sample = ownership.sample(of: table)
            if !sample.isEmpty {
                let columns = sample.map { DraftOwnership.sqlName($0.column) }.joined(separator: ", ")
                // ben's row as ben's own request would make it: the sample evaluated as the
                // admin with ben's claims, as the plan's truth evaluates it. Evaluated inside
                // ava's insert, a lookup of ben's parent row ran as ava and met the parent's
                // policies (42P17, recursing): "not probed" where dev said DANGER.
                let values: [String]
                switch try sampleValues(sample, as: benPersona) {
                case .success(let row): values = row.map { $0.map(DraftOwnership.literal) ?? "null" }
                case .failure(let error):
                    refused(error)
                    values = []
                    evidence.append("\(table)'s sample could not be evaluated as \(benName) (\(PersonaOutcome.describe(error)))")
                }
                let sql = "insert into \(quoted) (\(columns)) values (\(values.joined(separator: ", ")))"
                switch values.isEmpty ? nil : try context.asPersona(ava, "POST", on: finding, sql) {
                case nil: break
                case .rows:
                    proven = true
                    evidence.append("\(ava) inserted a row of \(table)\(owner == nil ? "" : " owned by \(benName)")")
                case .refused(let error) where Self.brokeAConstraintAfterThePolicy(error, table: table):
                    // PostgreSQL checks an insert's row against the policies before its
                    // NOT NULL, check, unique and foreign-key constraints: the policy let it in.
                    proven = true
                    evidence.append("\(ava)'s insert into \(table)\(owner == nil ? "" : " as \(benName)") passed the policy, "
                        + "then broke a constraint, which is checked after row-level security (\(PersonaOutcome.describe(error)))")
                case .refused(let error):
                    refused(error)
                    evidence.append("\(ava)'s insert into \(table)\(owner == nil ? "" : " as \(benName)"): refused (\(PersonaOutcome.describe(error)))")
                }
            }
        }
        // No row of another user at all (as the admin, in a rolled-back savepoint): an
        // update or delete of 0 rows proves nothing either way. Asked only then.
        var noOtherRows: Bool?
        func othersHaveNoRow() -> Bool {
            if let noOtherRows { return noOtherRows }
            let none = hasNoRow(where: others)
            noOtherRows = none
            return none
        }
        var emptyLegs = 0
        let column = updatedColumn()
        for (verb, method, sql) in [
            ("updated", "PATCH", "with changed as (update \(quoted) set \(column) = \(column) where \(others) returning 1) select count(*)::text from changed"),
            ("deleted", "DELETE", "with changed as (delete from \(quoted) where \(others) returning 1) select count(*)::text from changed"),
        ] where [verb == "updated" ? "w" : "d", "*"].contains(command) {
            switch try context.asPersona(ava, method, on: finding, sql) {
            case .rows(let rows):
                let count = Int(rows.first?.first.flatMap { $0 } ?? "0") ?? 0
                if count > 0 { proven = true } else if othersHaveNoRow() { emptyLegs += 1 }
                // Rows there were, hidden by the select policies: say why the policy did
                // not matter (a reader took "0 rows" for a blind update's answer).
                let hidden = count == 0 && !othersHaveNoRow() && owner != nil
                    ? " (an update or delete that filters on a column, as every Data API request does, reaches "
                        + "only the rows the select policies show; Supabase's API refuses an unfiltered one)"
                    : ""
                evidence.append("\(ava) \(verb) \(count) row\(count == 1 ? "" : "s") of \(table)\(whose)\(hidden)")
            case .refused(let error):
                refused(error)
                evidence.append("\(ava)'s \(verb == "updated" ? "update" : "delete") of \(table): refused (\(PersonaOutcome.describe(error)))")
            }
        }
        if ["w", "*"].contains(command), let benName, let ben = context.userIDs[benName], context.userIDs[ava] != nil,
           let (move, cast) = ownerColumnToMove() {
            let sql = "update \(quoted) set \(move) = '\(ben)'::uuid\(cast) where \(move) = auth.uid()\(cast)"
            switch try context.asPersona(ava, "PATCH", on: finding, sql, countingRows: true) {
            case .rows(let rows):
                let count = Int(rows.first?.first.flatMap { $0 } ?? "0") ?? 0
                if count > 0 {
                    proven = true
                    evidence.append("\(ava) gave \(count) own row\(count == 1 ? "" : "s") of \(table) to \(benName) (\(move) set to \(benName)'s id)")
                } else {
                    evidence.append("\(ava) gave no own row of \(table) to \(benName)")
                    if context.userIDs[ava].map({ hasNoRow(where: "\(move) = '\($0)'::uuid\(cast)") }) ?? true { emptyLegs += 1 }
                }
            case .refused(let error):
                refused(error)
                evidence.append("\(ava)'s move of an own row of \(table) to \(benName): refused (\(PersonaOutcome.describe(error)))")
            }
        }
        // Without the other user, there may be no row of theirs to try: not harmless.
        if !proven && benName == nil && owner != nil {
            return LintConsequence(verdict: .notProbed, evidence: evidence + [ProbeContext.leftOutEvidence])
        }
        if !proven && emptyLegs > 0 {
            return LintConsequence(verdict: .notProbed, evidence: evidence + [
                "\(table) has no row\(owner == nil ? "" : " of another user, or none of \(ava)'s to give") (as the admin too): "
                    + "updating, deleting or giving 0 rows shows nothing either way",
            ])
        }
        if !proven && !untried.isEmpty {
            return LintConsequence(verdict: .notProbed, evidence: evidence + [
                "refused by \(untried.joined(separator: ", ")), not by a privilege or a policy (the probe's row broke a "
                    + "constraint, or its sample could not be made), so the policy itself was not tried",
            ])
        }
        return LintConsequence(verdict: proven ? .proven : .harmless, evidence: evidence, personas: proven ? [provenAs] : [])
    }

    /// The owner column, when it holds a user's id and a signed-in user may update it:
    /// the column a move writes, and the cast that makes a user's id its value (`::text`
    /// for a text owner column, `user_id = auth.uid()::text`).
    private func ownerColumnToMove() -> (name: String, cast: String)? {
        guard let owning = ownership.owningColumn(of: finding.subject),
              let column = ownership.catalog.columns[finding.subject]?.first(where: {
                  $0.name == owning.name && $0.writable && $0.signedInMayUpdate
              }),
              owning.cast == "::text" || column.typeName == "uuid" else { return nil }
        return (DraftOwnership.sqlName(owning.name), owning.cast)
    }

    /// The owner column, when a signed-in user may update it.
    private func updatableOwnerColumn() -> DraftCatalog.Column? {
        ownership.ownerColumn(of: finding.subject).flatMap { name in
            ownership.catalog.columns[finding.subject]?.first { $0.name == name && $0.writable && $0.signedInMayUpdate }
        }
    }

    /// `sample`'s values for the signed-in `persona`: evaluated as the admin with that
    /// user's request settings (`PersonaRequest.truthSettings`), in a rolled-back
    /// savepoint; its error (a lookup that failed) as a failure.
    private func sampleValues(_ sample: [(column: String, expression: String)],
                              as persona: Persona) throws -> Result<[String?], PGError> {
        let settings = PersonaRequest.select(context.request(persona).routed("POST", to: finding).truthSettings)
        let values = SQL(raw: "select " + sample.map { "(\($0.expression))::text" }.joined(separator: ", "))
        do {
            return .success(try context.connection.rolledBack {
                let outcomes = try context.connection.run(unit: [settings, values])
                _ = try outcomes[0].get()
                return try outcomes[1].get().rows.first ?? []
            })
        } catch let error as PGError where error.kind == .server && !AccessPlanLimits.isLimit(error) {
            return .failure(error)
        }
    }

    /// Whether the table has no row where `condition` (SQL) holds, read as the admin in
    /// a rolled-back savepoint: an update, delete or move of 0 rows then proves nothing.
    private func hasNoRow(where condition: String) -> Bool {
        (try? context.connection.rolledBack {
            try context.connection.query(
                "select count(*)::text from \(raw: ConsequenceProber.quoted(finding)) where \(raw: condition)").scalar
        }) == "0"
    }

    /// A column an update can set to itself: not a GENERATED ALWAYS identity or a
    /// generated column (setting those is refused, 428C9, which would hide the policy),
    /// and one a signed-in user may update where there is one (`grant update (caption)`:
    /// the first column's 42501 hid a policy that let ava rewrite every caption).
    private func firstColumn() -> String {
        let columns = (ownership.catalog.columns[finding.subject] ?? []).filter(\.writable)
        return DraftOwnership.sqlName((columns.first(where: \.signedInMayUpdate) ?? columns.first)?.name ?? "ctid")
    }

    /// The column an update probe sets: the owner column where a signed-in user may
    /// update it, else `firstColumn()`.
    private func updatedColumn() -> String {
        updatableOwnerColumn().map { DraftOwnership.sqlName($0.name) } ?? firstColumn()
    }

    /// A NOT NULL, check, unique or foreign-key violation of the probed table's own row
    /// (a domain's NOT NULL names no table: it fails before the policy is checked).
    static func brokeAConstraintAfterThePolicy(_ error: PGError, table: String) -> Bool {
        let constraints: [SQLState] = [.notNullViolation, .checkViolation, .uniqueViolation, .foreignKeyViolation]
        guard let state = error.sqlState, constraints.contains(state), let name = error.tableName else { return false }
        return table.split(separator: ".").last.map(String.init) == name
    }
}
