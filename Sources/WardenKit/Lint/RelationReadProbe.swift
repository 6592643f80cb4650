import WardenPostgres

/// What anon and a signed-in user read through a view, materialized view, foreign
/// table or table without row-level security, compared with what they read of the
/// tables a view reads (a definer view shows rows its sources would not).
struct RelationReadProbe {
    let context: ProbeContext
    let finding: LintFinding

    func run(withWrites: Bool = false) throws -> LintConsequence {
        let quoted = ConsequenceProber.quoted(finding)
        let sources = finding.kind == .view ? try Self.sourceTables(of: finding, on: context.connection) : []
        var evidence: [String] = [], proven: [String] = []
        for persona in [context.anonName, context.userName].compactMap({ $0 }) {
            let seen = try count(quoted, as: persona)
            var line = "\(persona) reads \(Self.text(seen)) of \(finding.subject)"
            var shown = (Int(seen) ?? 0) > 0
            if !sources.isEmpty {
                let direct = try sources.map { "\($0.name): \(Self.text(try count($0.quoted, as: persona)))" }
                line += "; directly, of \(direct.joined(separator: ", "))"
                shown = shown && sources.contains { source in
                    let own = (try? count(source.quoted, as: persona)) ?? ""
                    return (Int(own) ?? -1) < (Int(seen) ?? 0)
                }
            }
            if withWrites {
                let writes = try writePrivileges(as: persona)
                if !writes.isEmpty {
                    line += "; may \(writes.joined(separator: ", ")) every row (no row-level security applies)"
                    shown = true
                }
            }
            evidence.append(line)
            if shown { proven.append(persona) }
        }
        // Without a signed-in user, nothing seen is not "harmless": a user may see more.
        if context.userName == nil { evidence.append(ProbeContext.leftOutEvidence) }
        // Nor is it when there is nothing to see: no row at all proves no read harmless.
        // (Read in a rolled-back savepoint: a view whose functions need the request's
        // search_path fails on the admin's; then it is not known to be empty.)
        let empty = proven.isEmpty && (try? context.connection.rolledBack {
            try context.connection.query("select count(*)::text from \(raw: quoted)").scalar
        }) == "0"
        if empty { evidence.append("\(finding.subject) has no rows (as the admin too): the reads show nothing either way") }
        let verdict: LintConsequence.Verdict = !proven.isEmpty ? .proven : context.userName == nil || empty ? .notProbed : .harmless
        return LintConsequence(verdict: verdict, evidence: evidence, personas: proven)
    }

    /// Row count, or the SQLSTATE that refused the read.
    private func count(_ quoted: String, as persona: String) throws -> String {
        switch try context.asPersona(persona, "GET", on: finding, "select count(*)::text from \(quoted)") {
        case .rows(let rows): return rows.first?.first.flatMap { $0 } ?? "0"
        case .refused(let error): return "refused (\(PersonaOutcome.describe(error)))"
        }
    }

    static func text(_ count: String) -> String {
        guard let number = Int(count) else { return count }
        return number == 1 ? "1 row" : "\(number) rows"
    }

    private func writePrivileges(as persona: String) throws -> [String] {
        guard let role = context.plan.persona(named: persona)?.role else { return [] }
        let row = try context.connection.query(
            """
            select has_table_privilege(\(role), to_regclass(\(ConsequenceProber.quoted(finding))), 'insert')::text, has_table_privilege(\(role), to_regclass(\(ConsequenceProber.quoted(finding))), 'update')::text,
                   has_table_privilege(\(role), to_regclass(\(ConsequenceProber.quoted(finding))), 'delete')::text
            """).rows.first ?? []
        return zip(["insert", "update", "delete"], row).filter { $0.1 == "true" }.map(\.0)
    }

    /// The tables and views the view of `finding` reads.
    static func sourceTables(of finding: LintFinding, on connection: Connection) throws -> [(name: String, quoted: String)] {
        try connection.query(
            """
            select distinct format('%s.%s', tn.nspname, t.relname), format('%I.%I', tn.nspname, t.relname)
            from pg_rewrite r
            join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid and d.refclassid = 'pg_class'::regclass
            join pg_class t on t.oid = d.refobjid and t.oid <> r.ev_class and t.relkind in ('r', 'p', 'v', 'm', 'f')
            join pg_namespace tn on tn.oid = t.relnamespace
            where r.ev_class = to_regclass(\(ConsequenceProber.quoted(finding)))
            order by 1
            """).rows.map { ($0[0] ?? "", $0[1] ?? "") }
    }
}
