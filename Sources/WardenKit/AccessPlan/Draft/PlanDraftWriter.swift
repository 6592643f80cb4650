/// Writes a drafted plan as YAML, with a comment on every cell that looks
/// dangerous for a Supabase app (anon writing; a signed-in user seeing or changing
/// other users' rows; anon executing a security definer function) and a NOTE where
/// no scope says what the database did.
struct PlanDraftWriter {
    let plan: AccessPlan
    /// Subject -> persona -> notes.
    let notes: [String: [String: [String]]]
    let securityDefiner: Set<String>
    /// `pgwarden lint`'s dangers, written as DANGER comments at the top.
    var findings: [LintFinding] = []
    /// Table -> its column referencing `auth.users` (a user column), for tables whose
    /// policies name no owner: reading every row there reads every user's rows.
    var userColumns: [String: String] = [:]
    /// Relation -> a NOTE on the relation as a whole (why the setup gives it no rows).
    var relationNotes: [String: String] = [:]
    /// Check name -> the table and the DANGER of what it observed
    /// (`DraftWriteCheck`: a user joining another user's rows, or writing into them).
    var checkDangers: [String: (table: String, danger: String)] = [:]
    /// Check name -> the table and the WARN of what it observed, where that is no
    /// DANGER as the project is set up (a sign-up's, with sign-ups off).
    var checkWarnings: [String: (table: String, warning: String)] = [:]
    /// Security definer functions anon may execute -> what `pgwarden lint`'s call as anon
    /// showed. A DANGER only where it proved harm (or lint had no call): where the call
    /// changed and read nothing, or could not show what the function does (it refused
    /// anon with its own error, or its arguments were made up), a WARN, as lint says
    /// (dev said DANGER where lint said WARN, and the draft's summary "1 cell marked
    /// DANGER, 0 lint dangers").
    var anonCalls: [String: LintConsequence] = [:]

    func render() -> String {
        var lines = [
            "# A starting access plan, drafted by `pgwarden plan draft` from the database as it is:",
            "# every cell below is what the database allowed, not what it should allow.",
            "# Review each one (search for DANGER and NOTE), then prove it with `pgwarden test`.",
        ]
        for finding in findings {
            lines.append("# DANGER (\(finding.rule.rawValue)) \(finding.subject): \(finding.detail)")
            lines += (finding.consequence?.evidence ?? []).map { "#   \($0)" }
        }
        lines += [
            "",
            "schemas: [\(plan.schemas.map(Self.key).joined(separator: ", "))]",
            "",
            "# Each persona gets the token Supabase would issue it (docs/access-plan-claims.md).",
            "# A signed-in persona may also say: metadata: {...} (raw_user_meta_data, for the",
            "# sign-up trigger), provider: github, aal: aal2 (signed in with MFA), sign_in: otp,",
            "# expired: true (exp in the past), claims: {...} (merged over the token's claims).",
            "personas:",
        ]
        for persona in plan.personas {
            let email = persona.user.map { ", email: \($0.email)" } ?? ""
            let metadata = persona.user.flatMap { $0.metadataJSON == "{}" ? nil : ", metadata: \($0.metadataJSON)" } ?? ""
            lines.append("  \(persona.name): { role: \(persona.role)\(email)\(metadata) }")
        }
        if !plan.setup.isEmpty {
            lines += ["", "# Rows for the signed-in personas, so that own and other users' rows can be probed.", "setup:"]
            for statement in plan.setup {
                lines.append("  - |")
                lines += statement.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
            }
        }
        if !plan.relations.isEmpty { lines += ["", "relations:"] }
        for relation in plan.relations {
            let key = relation.schema == plan.schemas.first ? relation.name : relation.qualifiedName
            lines.append("  \(Self.key(key)):")
            if let note = relationNotes[relation.qualifiedName] { lines.append("    # NOTE: \(note)") }
            if let owner = relation.owner { lines.append("    owner: \(Self.quote(owner))") }
            if let shared = relation.shared { lines.append("    shared: \(Self.quote(shared))") }
            if !relation.sample.isEmpty {
                lines.append("    sample:")
                lines += relation.sample.map { "      \(Self.key($0.column)): \(Self.quote($0.expression))" }
            }
            lines.append("    access:")
            let cellNotes = CellNotes(notes[relation.qualifiedName] ?? [:], personas: plan.personas.map(\.name))
            lines += cellNotes.sharedLines(indent: "      ")
            for persona in plan.personas {
                let access = relation.access[persona.name] ?? .nothing
                for note in cellNotes.own[persona.name] ?? [] { lines.append("      # NOTE: \(note)") }
                let danger = relationDanger(relation, persona, access).map { "  # DANGER: \($0)" } ?? ""
                lines.append("      \(persona.name): \(Self.text(access))\(danger)")
            }
        }
        if !plan.functions.isEmpty { lines += ["", "functions:"] }
        for function in plan.functions {
            lines.append("  \(Self.quote(function.signature)):")
            let cellNotes = CellNotes(notes[function.signature] ?? [:], personas: plan.personas.map(\.name))
            lines += cellNotes.sharedLines(indent: "    ")
            for persona in plan.personas {
                let executes = function.execute[persona.name] ?? false
                for note in cellNotes.own[persona.name] ?? [] { lines.append("    # NOTE: \(note)") }
                let danger = functionDanger(function, persona, executes).map { "  # DANGER: \($0)" }
                    ?? functionWarning(function, persona, executes).map { "  # WARN: \($0)" } ?? ""
                lines.append("    \(persona.name): \(executes ? "execute" : "deny")\(danger)")
            }
        }
        if !plan.checks.isEmpty {
            lines += ["", "# What the matrix cannot say: whether a signed-in user can join another user's rows or give", "# themselves a privilege", "checks:"]
        }
        for check in plan.checks {
            if let danger = checkDangers[check.name] { lines.append("  # DANGER: \(danger.danger)") }
            if let warning = checkWarnings[check.name] { lines.append("  # WARN: \(warning.warning)") }
            lines.append("  - name: \(Self.quote(check.name))")
            lines.append("    as: \(Self.key(check.persona))")
            if let before = check.before {
                lines.append("    before: |")
                lines += before.split(separator: "\n", omittingEmptySubsequences: false).map { "      \($0)" }
            }
            lines.append("    sql: \(Self.quote(check.sql))")
            if let verify = check.verify { lines.append("    verify: \(Self.quote(verify))") }
            let expectation = check.expectation
            if let state = expectation.sqlState {
                lines.append("    expect: { sqlstate: \(Self.quote(state)) }")
            } else if let count = expectation.rowCount {
                lines.append("    expect: { row_count: \(count) }")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The cells marked WARN where lint's call could not show what the function does, as
    /// `subject · persona: why` (one lint rates HARMLESS stays a comment in the plan: dev
    /// printed a WARN that lint contradicted).
    func warnings() -> [String] {
        plan.functions.flatMap { function in
            plan.personas.compactMap { persona in
                guard anonCalls[function.signature]?.verdict == .notProbed else { return nil }
                return functionWarning(function, persona, function.execute[persona.name] ?? false)
                    .map { "\(function.signature) · \(persona.name): \($0)" }
            }
        } + plan.checks.compactMap { check in
            checkWarnings[check.name].map { "\($0.table) · \(check.persona): \($0.warning)" }
        }
    }

    /// Every dangerous cell, as `subject · persona: why`.
    func dangers() -> [String] {
        plan.relations.flatMap { relation in
            plan.personas.compactMap { persona in
                relationDanger(relation, persona, relation.access[persona.name] ?? .nothing).map { "\(relation.qualifiedName) · \(persona.name): \($0)" }
            }
        } + plan.functions.flatMap { function in
            plan.personas.compactMap { persona in
                functionDanger(function, persona, function.execute[persona.name] ?? false).map { "\(function.signature) · \(persona.name): \($0)" }
            }
        } + plan.checks.compactMap { check in
            checkDangers[check.name].map { "\($0.table) · \(check.persona): \($0.danger)" }
        }
    }

    private func relationDanger(_ relation: RelationPlan, _ persona: Persona, _ access: Access) -> String? {
        let writes = [AccessOperation.insert, .update, .delete].filter { [.all, .own].contains(access.scope(of: $0)) }
        if persona.role == "anon" {
            // Files are no one's to read by default: anon reading storage.objects reads the bucket's files.
            let readsFiles = relation.qualifiedName == "storage.objects" && access.select == .all
            let done = (readsFiles ? [AccessOperation.select] : []) + writes
            var reasons: [String] = []
            if !done.isEmpty {
                reasons.append("may \(done.map(\.rawValue).joined(separator: ", "))" + (readsFiles ? " (the bucket's files)" : ""))
            }
            // Beside its writes too: a visitor who may insert and reads every user's rows
            // was said to insert only.
            if !readsFiles && access.select == .all {
                if relation.owner != nil {
                    reasons.append("sees every user's rows")
                } else if let column = userColumns[relation.qualifiedName] {
                    // As for a signed-in user: a user column says whose each row is.
                    reasons.append("sees every user's rows (user column \(column))")
                }
            }
            return reasons.isEmpty ? nil : "anon (no sign-in) " + reasons.joined(separator: " and ")
        }
        guard persona.user != nil else { return nil }
        let othersWritten = writes.filter { access.scope(of: $0) == .all }.map(\.rawValue)
        var reasons: [String] = []
        if relation.owner != nil && access.select == .all { reasons.append("sees other users' rows") }
        if relation.owner == nil && access.select == .all, let column = userColumns[relation.qualifiedName] {
            reasons.append("sees every user's rows (user column \(column))")
        }
        if !othersWritten.isEmpty {
            reasons.append("may \(othersWritten.joined(separator: ", ")) \(relation.owner != nil ? "other users' rows" : "every row")")
        }
        return reasons.isEmpty ? nil : "a signed-in user " + reasons.joined(separator: " and ")
    }

    private func functionDanger(_ function: FunctionPlan, _ persona: Persona, _ executes: Bool) -> String? {
        guard executes, persona.role == "anon", securityDefiner.contains(function.signature),
              [nil, .proven].contains(anonCalls[function.signature]?.verdict) else { return nil }
        return "anon (no sign-in) may execute this security definer function"
    }

    /// The same, where lint's call as anon proved no harm: a warning, as Supabase's
    /// advisor gives it, not a DANGER.
    private func functionWarning(_ function: FunctionPlan, _ persona: Persona, _ executes: Bool) -> String? {
        guard executes, persona.role == "anon", let call = anonCalls[function.signature] else { return nil }
        let executable = "anon (no sign-in) may execute this security definer function; pgwarden lint's call as anon "
        switch call.verdict {
        case .proven: return nil
        case .harmless:
            return executable + "changed nothing and read nothing (unless anon must call it, pgwarden lint says how to take it from anon)"
        case .notProbed:
            let why = call.evidence.first.map { " (\($0))" } ?? ""
            return executable + "could not show what it does\(why): review it (pgwarden lint says how to take it from anon)"
        }
    }

    /// The access in the plan's words: a shorthand where one fits, else a map.
    static func text(_ access: Access) -> String {
        switch access {
        case .nothing: return "none"
        case .everything: return "all"
        case Access(select: .all, insert: .nothing, update: .nothing, delete: .nothing): return "read"
        case Access(select: .denied, insert: .nothing, update: .nothing, delete: .nothing): return "denied"
        default:
            let parts = AccessOperation.allCases.filter { access.scope(of: $0) != .nothing }.map { "\($0.rawValue): \(access.scope(of: $0).rawValue)" }
            return "{ " + parts.joined(separator: ", ") + " }"
        }
    }

    /// A YAML double-quoted scalar (JSON string escaping is valid YAML).
    static func quote(_ text: String) -> String { JSONText.quote(text) }

    /// A mapping key: plain when it is a simple name YAML reads as text, else quoted.
    static func key(_ text: String) -> String {
        let special: Set<String> = ["null", "true", "false", "yes", "no", "on", "off", "y", "n"]
        return DraftOwnership.isPlain(text) && !special.contains(text) ? text : quote(text)
    }
}
