import WardenPostgres

/// Runs a custom check: its SQL as the persona, then compares rows, value, columns,
/// row count or SQLSTATE, and runs its admin `verify` SQL. All inside a savepoint
/// that is rolled back.
struct CheckProber {
    let context: ProbeContext

    func run(_ check: CustomCheck) throws -> ProbeResult {
        guard let persona = context.plan.persona(named: check.persona) else {
            return verdict(check, expected: "persona \(check.persona)", problems: ["persona \(check.persona) has no token (its sign-in failed)"])
        }
        let connection = context.connection
        let seal = context.seal
        return try connection.rolledBackSavepoint {
            try context.impersonation.setClaims(context.request(persona))
            if let before = check.before {
                do {
                    try seal.run(before, origin: "the 'before' SQL of check '\(check.name)'")
                } catch let error as PGError {
                    return verdict(check, expected: describe(check), problems: ["its 'before' SQL failed: \(error.message)"])
                }
            }
            // The persona, never the admin, runs the check's SQL: the seal verifies
            // current_user is the persona's role after every statement.
            try context.impersonation.become(context.request(persona))
            let outcome: Result<QueryResult, PGError>
            do {
                // In a savepoint, with its deferred checks fired as the request's commit
                // would (`DeferredConstraints`): a request that fails leaves nothing of
                // it for `verify` to see, and the transaction usable.
                let results = try connection.savepoint {
                    let results = try seal.run(check.sql, as: persona.role, origin: "the SQL of check '\(check.name)'")
                    if context.firesDeferredConstraints { try connection.execute(DeferredConstraints.firingSQL) }
                    return results
                }
                outcome = .success(results.last(where: { !$0.columns.isEmpty }) ?? results.last
                    ?? QueryResult(commandTag: "", columns: [], rows: [], affectedRows: nil))
            } catch let error as PGError
                where !AccessPlanLimits.isLimit(error) || error.sqlState?.rawValue == check.expectation.sqlState
            {
                outcome = .failure(error)  // a limit the check expects (57014 as anon) is its outcome
            }
            try context.impersonation.becomeAdmin()
            var problems = try compare(outcome, with: check.expectation, check: check)
            if let verify = check.verify {
                problems += try runVerify(verify, check: check)
            }
            return verdict(check, expected: describe(check), problems: problems, outcome: outcome)
        }
    }

    /// What differs from the expectation. `rows_equal` SQL is run here unless its rows
    /// are given (`rowsEqualTruth`, read in a batch).
    func compare(_ outcome: Result<QueryResult, PGError>, with expectation: Expectation,
                 check: CustomCheck, rowsEqualTruth: [[String?]]? = nil) throws -> [String] {
        switch outcome {
        case .failure(let error):
            let state = error.sqlState?.rawValue ?? "?????"
            if let expected = expectation.sqlState {
                // (The report says what was expected beside it: "expected SQLSTATE 42501;
                // observed failed with 23505 (...)", not the expectation twice.)
                return state == expected ? [] : ["failed with \(state) (\(error.message))"]
            }
            return ["failed: \(state) \(error.message)"]
        case .success(let result):
            var problems: [String] = []
            if expectation.sqlState != nil {
                let touched = result.columns.isEmpty ? (result.affectedRows ?? 0) : result.rows.count
                problems.append("succeeded (\(touched == 1 ? "1 row" : "\(touched) rows"))")
            }
            if let columns = expectation.columns, result.columns != columns {
                problems.append("columns were [\(result.columns.joined(separator: ", "))], expected [\(columns.joined(separator: ", "))]")
            }
            if let rows = expectation.rows, result.rows != rows {
                problems.append("rows were \(render(result.rows)), expected \(render(rows))")
            }
            if let truth = rowsEqualTruth {
                if truth != result.rows {
                    problems.append("rows were \(render(result.rows)), expected those of rows_equal: \(render(truth))")
                }
            } else if let sql = expectation.rowsEqual {
                do {
                    let truth = try context.seal.run(sql, origin: "the rows_equal SQL of check '\(check.name)'")
                        .last(where: { !$0.columns.isEmpty })?.rows ?? []
                    if truth != result.rows {
                        problems.append("rows were \(render(result.rows)), expected those of rows_equal: \(render(truth))")
                    }
                } catch let error as PGError {
                    problems.append("its rows_equal SQL failed: \(error.message)")
                }
            }
            if let value = expectation.value, result.scalar != value {
                problems.append("value was \(result.scalar ?? "NULL"), expected \(value)")
            }
            if let count = expectation.rowCount {
                let seen = result.columns.isEmpty ? (result.affectedRows ?? 0) : result.rows.count
                if seen != count { problems.append("\(seen) rows, expected \(count)") }
            }
            return problems
        }
    }

    private func runVerify(_ sql: String, check: CustomCheck) throws -> [String] {
        do {
            let value = try context.seal.run(sql, origin: "the verify SQL of check '\(check.name)'")
                .last(where: { !$0.columns.isEmpty })?.scalar
            return value == "t" ? [] : ["verify returned \(value ?? "NULL"), expected true"]
        } catch let error as PGError {
            return ["its verify SQL failed: \(error.message)"]
        }
    }

    func describe(_ check: CustomCheck) -> String {
        let e = check.expectation
        var parts: [String] = []
        if let state = e.sqlState { parts.append("SQLSTATE \(state)") }
        if let columns = e.columns { parts.append("columns [\(columns.joined(separator: ", "))]") }
        if let rows = e.rows { parts.append("rows \(render(rows))") }
        if e.rowsEqual != nil { parts.append("rows equal to rows_equal") }
        if let value = e.value { parts.append("value \(value)") }
        if let count = e.rowCount { parts.append("\(count) rows") }
        if check.verify != nil { parts.append("verify true") }
        return parts.joined(separator: ", ")
    }

    private func render(_ rows: [[String?]]) -> String {
        let shown = rows.prefix(5).map { "(" + $0.map { $0 ?? "NULL" }.joined(separator: ", ") + ")" }
        return "[" + shown.joined(separator: ", ") + (rows.count > 5 ? ", … \(rows.count) in all" : "") + "]"
    }

    func verdict(_ check: CustomCheck, expected: String, problems: [String],
                         outcome: Result<QueryResult, PGError>? = nil) -> ProbeResult {
        var observed = problems.joined(separator: "; ")
        if problems.isEmpty {
            switch outcome {
            case .failure(let error)?: observed = "SQLSTATE \(error.sqlState?.rawValue ?? "?")"
            case .success(let result)?:
                // A check the admin's `verify` decides says so ("1 rows" of `select 1`,
                // beside a DANGER, said nothing of what was verified).
                let rows = result.rows.count
                let what = result.columns.isEmpty ? result.commandTag : "\(rows) row\(rows == 1 ? "" : "s")"
                // A write's count beside its verify: "went through (1 row)" where the verify
                // proves what it changed, "refused" where it wrote none.
                observed = check.verify == nil ? "as expected (\(what))"
                    : result.columns.isEmpty && !what.isEmpty ? "as expected (\(what), verify held)" : "as expected (verify held)"
            case nil: observed = "as expected"
            }
        }
        return ProbeResult(
            subjectKind: .check, subject: check.name, persona: check.persona, operation: nil,
            probe: "check", expected: expected, observed: observed, passed: problems.isEmpty)
    }
}
