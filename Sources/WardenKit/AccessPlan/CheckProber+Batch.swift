import WardenPostgres

extension CheckProber {
    /// Queues the whole check as one probe of `batch`: the persona's claims, the
    /// `before` SQL (sealed, as the admin), the role switch, the check's SQL (sealed,
    /// as the persona), its deferred checks fired (`DeferredConstraints`), the return
    /// to the admin, `rows_equal` and `verify` (sealed):
    /// the same statements, in the same order, as `run`.
    ///
    /// The returned closure reads the result once the batch has run, or returns nil
    /// when a statement failed where `run` would have gone on after it (the check's
    /// SQL failed and it has a `verify`; its `rows_equal` failed; or a limit ran out):
    /// the batch stopped that probe there, so the caller runs it again with `run`.
    /// Every probe is rolled back, so running it again sees what it saw the first time.
    func queue(_ check: CustomCheck, _ batch: ProbeBatch) -> () throws -> ProbeResult? {
        guard let persona = context.plan.persona(named: check.persona) else {
            return { try run(check) }
        }
        let seal = context.seal
        let request = context.request(persona)
        let before = check.before.map { SealedSQL.statements(of: $0) } ?? []
        let sql = SealedSQL.statements(of: check.sql)
        let rowsEqual = check.expectation.rowsEqual.map { SealedSQL.statements(of: $0) } ?? []
        let verify = check.verify.map { SealedSQL.statements(of: $0) } ?? []
        var statements: [SQL] = [PersonaRequest.select(request.requestSettings)]
        statements += seal.sealedStatements(before)
        statements.append(PersonaRequest.select(request.roleSwitch))
        statements += seal.sealedStatements(sql, as: persona.role)
        let fires = context.firesDeferredConstraints
        if fires { statements.append(DeferredConstraints.firingSQL) }
        statements.append("select set_config('role', \(seal.roleSetting), true)")
        statements += seal.sealedStatements(rowsEqual) + seal.sealedStatements(verify)
        let ticket = batch.rolledBack(statements)
        return {
            var outcomes = try batch.outcomes(ticket)
            if outcomes.contains(where: { if case .error(let e) = $0 { return AccessPlanLimits.isLimit(e) } else { return false } }) {
                return nil
            }
            _ = try outcomes.removeFirst().get()
            let name = check.name
            do {
                _ = try seal.read(outcomes, statements: before.count, origin: "the 'before' SQL of check '\(name)'")
            } catch let error as PGError {
                return verdict(check, expected: describe(check), problems: ["its 'before' SQL failed: \(error.message)"])
            }
            outcomes.removeFirst(before.count * 5)
            _ = try outcomes.removeFirst().get()
            let outcome: Result<QueryResult, PGError>
            do {
                let results = try seal.read(outcomes, statements: sql.count, as: persona.role, origin: "the SQL of check '\(name)'")
                if fires { _ = try outcomes[sql.count * 5].get() }
                outcome = .success(results.last(where: { !$0.columns.isEmpty }) ?? results.last
                    ?? QueryResult(commandTag: "", columns: [], rows: [], affectedRows: nil))
            } catch let error as PGError {
                guard check.verify == nil else { return nil }
                return verdict(check, expected: describe(check), problems: try compare(.failure(error), with: check.expectation, check: check), outcome: .failure(error))
            }
            outcomes.removeFirst(sql.count * 5 + (fires ? 1 : 0))
            _ = try outcomes.removeFirst().get()
            var problems: [String] = []
            if case .success = outcome, !rowsEqual.isEmpty {
                do {
                    let truth = try seal.read(outcomes, statements: rowsEqual.count, origin: "the rows_equal SQL of check '\(name)'")
                        .last(where: { !$0.columns.isEmpty })?.rows ?? []
                    problems = try compare(outcome, with: check.expectation, check: check, rowsEqualTruth: truth)
                } catch is PGError {
                    return nil
                }
            } else {
                problems = try compare(outcome, with: check.expectation, check: check)
            }
            outcomes.removeFirst(rowsEqual.count * 5)
            if check.verify != nil {
                do {
                    let value = try seal.read(outcomes, statements: verify.count, origin: "the verify SQL of check '\(name)'")
                        .last(where: { !$0.columns.isEmpty })?.scalar
                    if value != "t" { problems.append("verify returned \(value ?? "NULL"), expected true") }
                } catch let error as PGError {
                    problems.append("its verify SQL failed: \(error.message)")
                }
            }
            return verdict(check, expected: describe(check), problems: problems, outcome: outcome)
        }
    }
}
