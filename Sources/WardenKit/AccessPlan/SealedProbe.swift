import WardenPostgres

/// One write probe as a unit of a `ProbeBatch`: the persona's request settings and
/// role, then the probe's statement. When the plan gives SQL to run first as the
/// admin (`before_insert`), it runs with the persona's claims before the role switch,
/// sealed exactly as `RunSeal.run` seals it: statement by statement, each in a
/// savepoint of its own, each followed by the seal's identity query, all in the same
/// unit, so a statement that changed who runs the SQL or which transaction this is
/// is seen right after it, before anything else of the probe runs.
struct SealedProbe {
    let request: PersonaRequest
    let seal: RunSeal
    /// Plan SQL run as the admin first, and where it comes from (for messages).
    let adminFirst: (sql: String, origin: String)?
    let statement: SQL
    /// Whether the statement is followed by `DeferredConstraints.firingSQL`: its
    /// deferred checks fire as at commit, and a refusal is the statement's outcome.
    var firesDeferred = false

    /// Queues the probe; the returned closure reads what came of it.
    func queue(_ batch: ProbeBatch) -> () throws -> ProbeOutcome {
        guard let adminFirst else {
            let ticket = batch.rolledBack(
                [PersonaRequest.select(request.roleSwitch + request.requestSettings)] + probed,
                parsedAs: request.role)
            return { try Self.outcome(of: try batch.outcomes(ticket), settings: 1) }
        }
        let planStatements = SealedSQL.statements(of: adminFirst.sql)
        let statements: [SQL] = [PersonaRequest.select(request.requestSettings)]
            + seal.sealedStatements(planStatements)
            + [PersonaRequest.select(request.roleSwitch)] + probed
        let ticket = batch.rolledBack(statements)
        return {
            let outcomes = try batch.outcomes(ticket)
            _ = try outcomes[0].get()
            // The plan statement's own error is thrown as RunSeal.run throws it.
            _ = try seal.read(Array(outcomes.dropFirst()), statements: planStatements.count, origin: adminFirst.origin)
            return try Self.outcome(of: outcomes, settings: 1 + planStatements.count * 5 + 1)
        }
    }

    /// The statement, then what fires its deferred checks.
    private var probed: [SQL] { firesDeferred ? [statement, DeferredConstraints.firingSQL] : [statement] }

    /// The statement's outcome, after `settings` statements that must have succeeded:
    /// its rows, or its error, or the error of its deferred checks (the statement after
    /// it, when there is one).
    private static func outcome(of outcomes: [PipelinedBatch.Outcome], settings: Int) throws -> ProbeOutcome {
        for index in 0..<settings { _ = try outcomes[index].get() }
        return try ProbeOutcome.of {
            let result = try outcomes[settings].get()
            if outcomes.count > settings + 1 { _ = try outcomes[settings + 1].get() }
            return result
        }
    }
}

extension SealedProbe {
    /// A write probe of the run `context` belongs to: its seal, and its deferred
    /// constraints fired.
    init(_ context: ProbeContext, _ request: PersonaRequest, adminFirst: (sql: String, origin: String)? = nil, statement: SQL) {
        self.init(request: request, seal: context.seal, adminFirst: adminFirst, statement: statement,
                  firesDeferred: context.firesDeferredConstraints)
    }
}
