import Foundation
import WardenPostgres

/// What a policy reading `user_metadata` lets a signed-in user do by setting their own
/// metadata (any user may, through Supabase Auth's update-user call): ava reads the
/// table with her metadata as it is, then with each key the policy reads set to a value
/// the policies compare with (`->> 'role') = 'admin'`), then to one found in the table's
/// text columns. Proven when a forged value shows more rows; not probed when there was
/// no value to try. (A table with no text column tried none and was called HARMLESS,
/// while `role: admin` read and rewrote every user's invoices.)
///
/// Where no value shows more rows, ava inserts the table's drafted sample row as her
/// own with her metadata as it is and, refused by a policy, with each forged value:
/// proven when one lets the row in. (An insert policy trusting `user_metadata ->>
/// 'platform'` was HARMLESS: a read showed nothing either way; round thirty-seven.)
struct UserMetadataPolicyProbe {
    let context: ProbeContext
    let finding: LintFinding
    /// The policy expressions of the table (pg_get_expr text).
    let expressions: [String]
    /// The draft's view of the tables, for the sample row an insert tries.
    var ownership: DraftOwnership? = nil

    func run() throws -> LintConsequence {
        guard !keys().isEmpty else { return LintConsequence(verdict: .notProbed, evidence: []) }
        guard let name = context.userName, let ava = context.plan.persona(named: name), let user = ava.user else {
            return LintConsequence(verdict: .notProbed, evidence: [ProbeContext.leftOutEvidence])
        }
        let quoted = ConsequenceProber.quoted(finding)
        let baseline = try count(quoted, as: ava)
        var evidence = ["\(name) reads \(RelationReadProbe.text(String(baseline))) of \(finding.subject) with \(Self.own(name)) user_metadata"]
        let values = try candidateValues()
        guard !values.isEmpty else {
            evidence.append("no value to try: the policies compare the keys (\(keys().joined(separator: ", "))) with no literal, "
                + "and \(finding.subject) has no text value; a user may still set them")
            return LintConsequence(verdict: .notProbed, evidence: evidence)
        }
        for key in keys() {
            for value in values {
                var forged = ava
                forged.user = user
                forged.user?.metadataJSON = JSONText.encode([key: value])
                let seen = try count(quoted, as: forged)
                guard seen > baseline else { continue }
                evidence.append("\(name), after setting \(Self.own(name)) user_metadata to \(forged.user?.metadataJSON ?? ""), reads \(RelationReadProbe.text(String(seen))) of \(finding.subject)")
                return LintConsequence(verdict: .proven, evidence: evidence, personas: [name])
            }
        }
        if let inserted = try forgedInsert(as: name, values: values, evidence: &evidence) { return inserted }
        evidence.append("no user_metadata value tried (keys \(keys().joined(separator: ", ")), values the policies name and "
            + "from the table's text columns) showed more rows\(ownership == nil ? "" : " or let an own row in")")
        return LintConsequence(verdict: .harmless, evidence: evidence)
    }

    /// Ava's insert of the sample row refused by a policy with her metadata as it is,
    /// then let in with a forged value (proven), or nil.
    private func forgedInsert(as name: String, values: [String], evidence: inout [String]) throws -> LintConsequence? {
        guard let ownership else { return nil }
        let sql = ownership.insertOfTheSample(of: finding.subject, into: ConsequenceProber.quoted(finding))
        let own = context.plan.persona(named: name)?.user?.metadataJSON ?? "{}"
        guard case .refused(let error) = try context.asPersona(name, "POST", on: finding, sql, userMetadataJSON: own),
              error.sqlState == .insufficientPrivilege, error.message.hasPrefix("new row violates row-level security policy")
        else { return nil }
        evidence.append("\(name)'s insert of an own row of \(finding.subject) with \(Self.own(name)) user_metadata: refused "
            + "(\(PersonaOutcome.describe(error)))")
        for key in keys() {
            for value in values {
                let forged = JSONText.encode([key: value])
                let outcome = try context.asPersona(name, "POST", on: finding, sql, userMetadataJSON: forged)
                let passed: Bool = switch outcome {
                case .rows: true
                case .refused(let error): AlwaysTruePolicyProbe.brokeAConstraintAfterThePolicy(error, table: finding.name)
                }
                guard passed else { continue }
                evidence.append("\(name), after setting \(Self.own(name)) user_metadata to \(forged), inserted it")
                return LintConsequence(verdict: .proven, evidence: evidence, personas: [name])
            }
        }
        return nil
    }

    /// "her own" for the drafted ava, "their own" for a plan's persona.
    static func own(_ name: String) -> String { name == "ava" ? "her own" : "their own" }

    /// The user_metadata keys the policies read.
    private func keys() -> [String] {
        var found: [String] = []
        for expression in expressions {
            for match in expression.matches(of: /user_metadata'(?:::text)?\)*\s*->>?\s*'([^']+)'/) {
                let key = String(match.1)
                if !found.contains(key) { found.append(key) }
            }
        }
        return found
    }

    /// The string literals of the policies (`'admin'::text`) other than the keys and the
    /// claims' names, in the order they appear.
    private func policyLiterals() -> [String] {
        Self.stringLiterals(in: expressions,
                            skipping: Set(keys() + ["user_metadata", "app_metadata", "request.jwt.claims", "request.jwt.claim"]))
    }

    /// The string literals of `texts` (quotes undoubled), each once, in the order they
    /// appear, but those in `skipped`.
    static func stringLiterals(in texts: [String], skipping skipped: Set<String>) -> [String] {
        var found: [String] = []
        for text in texts {
            for match in text.matches(of: /'((?:[^']|'')*)'/) {
                let literal = String(match.1).replacingOccurrences(of: "''", with: "'")
                if !skipped.contains(literal), !found.contains(literal) { found.append(literal) }
            }
        }
        return found
    }

    /// The policies' literals, then up to 5 values of each column the policies name
    /// (`org_id = (... ->> 'org_id')::uuid`: a uuid column with only unrelated text beside
    /// it was tried with that text, and a real hole was HARMLESS), then of each text
    /// column (read as the admin, who sees every row).
    private func candidateValues() throws -> [String] {
        let all = try context.connection.query(
            """
            select format('%I', a.attname), a.attname::text, t.typcategory::text from pg_attribute a join pg_type t on t.oid = a.atttypid
            where a.attrelid = to_regclass(\(ConsequenceProber.quoted(finding))) and a.attnum > 0 and not a.attisdropped
            order by a.attnum
            """).rows
        let named = all.filter { row in
            let name = NSRegularExpression.escapedPattern(for: row[1] ?? "")
            return expressions.contains { $0.range(of: #"(?<![\w'"])"# + name + #"(?![\w'"])"#, options: .regularExpression) != nil }
        }
        let columns = (named + all.filter { $0[2] == "S" }).compactMap { $0[0] }
            .reduce(into: [String]()) { kept, column in if !kept.contains(column) { kept.append(column) } }
        var values = policyLiterals()
        for column in columns {
            values += try context.connection.query(
                "select distinct \(raw: column)::text from \(identifier: finding.schema, finding.name) where \(raw: column) is not null limit 5"
            ).rows.compactMap { $0[0] }.filter { !values.contains($0) }
        }
        return values
    }

    private func count(_ quoted: String, as persona: Persona) throws -> Int {
        do {
            return try context.impersonation.probe(
                context.request(persona, userMetadataJSON: persona.user?.metadataJSON ?? "{}")
                    .routed("GET", to: finding)) {
                Int(try context.connection.query("select count(*)::text from \(raw: quoted)").scalar ?? "0") ?? 0
            }
        } catch let error as PGError where error.kind == .server {
            return 0
        }
    }
}
