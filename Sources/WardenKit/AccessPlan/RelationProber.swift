import WardenPostgres

/// Probes one table or view for every persona: what each sees, and, for tables,
/// whether each insert, update (including moving a row to another owner) and delete
/// is allowed on own rows and on another user's rows, as the plan says.
struct RelationProber {
    let context: ProbeContext
    let plan: RelationPlan
    let relation: ExposedCatalog.Relation

    /// The relation's quoted, schema-qualified name.
    var table: SQL { "\(identifier: relation.schema, relation.name)" }

    func run() throws -> [ProbeResult] {
        var results: [ProbeResult] = []
        if let columns = plan.columns { results.append(columnsResult(declared: columns)) }
        for persona in context.plan.personas {
            let access = plan.access[persona.name] ?? .nothing
            results.append(try probeSelect(persona, access.select))
            guard relation.isTable else { continue }
            results += try probeInserts(persona, access.insert)
            results += try probeRowWrites(persona, access.update, operation: .update)
            results += try probeRowWrites(persona, access.delete, operation: .delete)
        }
        return results
    }

    private func result(_ persona: Persona?, _ operation: AccessOperation?, _ probe: String, expected: String,
                        observed: String, passed: Bool) -> ProbeResult {
        ProbeResult(
            subjectKind: .relation, subject: plan.qualifiedName, persona: persona?.name, operation: operation,
            probe: probe, expected: expected, observed: observed, passed: passed)
    }

    private func columnsResult(declared: [String]) -> ProbeResult {
        result(nil, nil, "columns", expected: declared.joined(separator: ", "),
               observed: relation.columns.joined(separator: ", "), passed: declared == relation.columns)
    }

    // MARK: - Select

    /// Row count and a digest of the rows' JSON, so sets compare without shipping rows.
    /// `condition` is the plan's owner rule (SQL the plan's author wrote on purpose).
    private func digestSQL(where condition: String?) -> SQL {
        let filter: SQL = condition.map { " where (\(raw: $0))" } ?? ""
        return """
            select count(*)::text, md5(coalesce(string_agg(j, E'\\n' order by j), ''))
            from (select to_jsonb(r)::text as j from \(table) r\(filter)) s
            """
    }

    private func probeSelect(_ persona: Persona, _ scope: Scope) throws -> ProbeResult {
        let request = context.request(persona).routed("GET", "/\(plan.name)")
        let truth = try context.connection.rolledBackSavepoint { () -> (all: [String?], own: [String?]?) in
            try context.impersonation.setClaims(request)
            let all = try context.connection.query(digestSQL(where: nil)).rows.first ?? []
            let own = try plan.owner.map { try context.connection.query(digestSQL(where: $0)).rows.first ?? [] }
            return (all, own)
        }
        let seen: [String?]?
        do {
            seen = try context.impersonation.probe(request) {
                try context.connection.query(digestSQL(where: nil)).rows.first
            }
        } catch let error as PGError where error.sqlState == .insufficientPrivilege {
            seen = nil
        }
        let observed: String
        let passed: Bool
        let allCount = truth.all.first.flatMap { $0 } ?? "0"
        if let seen {
            let count = seen.first.flatMap { $0 } ?? "0"
            if count == "0" {
                observed = "none (0 rows)"
            } else if seen == truth.all {
                observed = "all (\(count) rows)"
            } else if let own = truth.own, seen == own {
                observed = "own (\(count) rows)"
            } else {
                observed = "\(count) rows: neither all (\(allCount)) nor own (\(truth.own?.first.flatMap { $0 } ?? "-"))"
            }
            switch scope {
            case .all: passed = seen == truth.all
            case .own: passed = truth.own.map { seen == $0 } ?? false
            case .nothing: passed = count == "0"
            case .denied: passed = false
            }
        } else {
            observed = "none (permission denied)"
            passed = scope == .nothing || scope == .denied
        }
        let ownCount = truth.own?.first.flatMap { $0 } ?? "0"
        let expected: String
        switch scope {
        case .all: expected = "all (\(allCount) rows)"
        case .own: expected = "own (\(ownCount) rows)"
        case .nothing: expected = "none (0 rows or permission denied)"
        case .denied: expected = "denied (42501)"
        }
        return result(persona, .select, "select", expected: expected, observed: observed, passed: passed)
    }

    // MARK: - Insert

    private func probeInserts(_ persona: Persona, _ scope: Scope) throws -> [ProbeResult] {
        var targets: [(label: String, owner: Persona?, ownsIt: Bool)] = []
        if plan.owner != nil, persona.user != nil {
            targets.append(("insert own row", persona, true))
            if let other = context.otherUser(than: persona) { targets.append(("insert another user's row", other, false)) }
        } else {
            targets.append(("insert a row", persona.user != nil ? persona : context.someUser, plan.owner == nil))
        }
        return try targets.map { target in
            let expectAllowed = scope == .all || (scope == .own && target.ownsIt)
            let values: [String?]
            do {
                values = try sampleValues(as: target.owner)
            } catch let error as PGError {
                return result(persona, .insert, target.label, expected: expectation(expectAllowed, scope),
                              observed: "the plan's sample could not be evaluated: \(error.message)", passed: false)
            }
            let columns = SQL.joined(plan.sample.map { "\(identifier: $0.column)" }, separator: ", ")
            let bound = SQL.joined(values.map { "\($0)" }, separator: ", ")
            let outcome = try context.impersonation.probe(
                context.request(persona).routed("POST", "/\(plan.name)"),
                adminFirst: plan.beforeInsert.map { ($0, "the before_insert SQL of \(plan.qualifiedName)") }
            ) {
                try ProbeOutcome.of {
                    try context.connection.query("insert into \(table) (\(columns)) values (\(bound))")
                }
            }
            return verdict(persona, .insert, target.label, expectAllowed: expectAllowed, scope: scope, outcome: outcome)
        }
    }

    /// The sample's values as the given persona would write them (their `auth.uid()`).
    func sampleValues(as owner: Persona?) throws -> [String?] {
        try context.connection.rolledBackSavepoint {
            try context.impersonation.setClaims(owner.map { context.request($0) } ?? .nobody)
            let list = SQL.joined(plan.sample.map { "(\(raw: $0.expression))::text" }, separator: ", ")
            return try context.connection.query("select \(list)").rows.first ?? []
        }
    }
}
