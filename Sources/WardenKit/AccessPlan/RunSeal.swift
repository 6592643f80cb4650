import WardenPostgres

/// The second wall of a sealed run (the first is `SealedSQL`, checked when the plan
/// is read). Plan SQL runs one statement at a time, each in a savepoint of the
/// runner's; after every statement the runner checks that the transaction is still
/// the one it began (status, transaction id, the savepoint still there to release)
/// and that the session is still who it should be (`current_user` the admin, or the
/// persona's role for a check; `session_user` unchanged). If not, the run stops
/// with an error, and the caller's `rolledBack` undoes whatever is left to undo.
struct RunSeal {
    let connection: Connection
    let source: String
    /// The top-level transaction id when the run began.
    let transactionID: String
    /// `current_user` when the run began: the admin the runner computes truth as.
    let adminRole: String
    /// `session_user` when the run began.
    let sessionUser: String
    /// The `role` setting when the run began (`none` unless the caller set a role).
    let roleSetting: String

    /// Records who and where the run is. Call inside the run's transaction.
    static func capture(_ connection: Connection, source: String) throws -> RunSeal {
        captured(from: try connection.query(Self.identitySQL), on: connection, source: source)
    }

    /// The seal from `identitySQL`'s result, read by the caller with other statements.
    static func captured(from result: QueryResult, on connection: Connection, source: String) -> RunSeal {
        let row = result.rows.first ?? []
        func field(_ index: Int) -> String { index < row.count ? (row[index] ?? "") : "" }
        return RunSeal(
            connection: connection, source: source, transactionID: field(0), adminRole: field(1),
            sessionUser: field(2), roleSetting: field(3))
    }

    /// Who and where the run is: transaction id, `current_user`, `session_user`, `role`.
    static let identitySQL: SQL =
        "select txid_current()::text, current_user::text, session_user::text, current_setting('role')"

    /// Runs plan SQL statement by statement (as whoever is current: the admin, or the
    /// persona `role` a check switched to), checking the seal after each. A statement's
    /// own error is rethrown as the `PGError` it is, its savepoint rolled back.
    ///
    /// All the statements go in one pipelined unit (one round trip; see
    /// `sealedStatements`): each still one extended-protocol message in a savepoint
    /// of its own, each followed by the seal's identity query and a guard that stops
    /// the unit when the identity is not the expected one, so nothing runs after a
    /// statement that broke the seal, as when each was sent and checked alone.
    @discardableResult
    func run(_ sql: String, as role: String? = nil, origin: String) throws -> [QueryResult] {
        let statements = SealedSQL.statements(of: sql)
        guard !statements.isEmpty else { return [] }
        var batch = PipelinedBatch()
        batch.add(sealedStatements(statements, as: role))
        let outcomes = try connection.run(batch)[0]
        do {
            let results = try read(outcomes, statements: statements.count, as: role, origin: origin)
            guard connection.transactionStatus == .inTransaction else {
                throw broken(origin, "the run's transaction is no longer open")
            }
            return results
        } catch let error as PGError {
            // The statement failed: undo it, as a savepoint per statement would have.
            do {
                try connection.rollBackAndRelease(savepoint: Self.savepoint)
            } catch {
                throw broken(origin, "the runner's savepoint is gone (\(error))")
            }
            throw error
        }
    }

    private static let savepoint = "pgwarden_plan_sql"

    /// Runs several pieces of plan SQL (the setup's entries) as `run` runs one, all
    /// in one pipelined unit: one round trip for all of them. The first statement that
    /// fails stops the rest, as when they were run one after another; its error is
    /// passed to `failed` with the index of its piece, and what `failed` returns is
    /// thrown (its savepoint rolled back first).
    ///
    /// `then`: a statement of pgwarden's own to run last in the same unit, once every
    /// piece ran (the runner's clock, read after the setup); its result is returned
    /// (nil when there was no plan SQL to run, and so no unit: the caller runs it).
    @discardableResult
    func run(pieces: [String], origin: (Int) -> String, failed: (Int, PGError) -> Error, then last: SQL? = nil)
        throws -> QueryResult?
    {
        let statements = pieces.map { SealedSQL.statements(of: $0) }
        guard statements.contains(where: { !$0.isEmpty }) else { return nil }
        var batch = PipelinedBatch()
        batch.add(statements.flatMap { sealedStatements($0) } + (last.map { [$0] } ?? []))
        var outcomes = try connection.run(batch)[0]
        for (index, piece) in statements.enumerated() {
            do {
                _ = try read(outcomes, statements: piece.count, origin: origin(index))
            } catch let error as PGError {
                do {
                    try connection.rollBackAndRelease(savepoint: Self.savepoint)
                } catch {
                    throw broken(origin(index), "the runner's savepoint is gone (\(error))")
                }
                throw failed(index, error)
            }
            outcomes.removeFirst(piece.count * 5)
        }
        guard connection.transactionStatus == .inTransaction else {
            throw broken(origin(statements.count - 1), "the run's transaction is no longer open")
        }
        return try outcomes.first?.get()
    }


    /// Each statement of plan SQL sealed: in a savepoint, then the identity query, then
    /// a guard that fails (22012) unless the transaction, `current_user` (`role`, or the
    /// admin) and `session_user` are the expected ones, then the release. Five
    /// statements per statement of plan SQL, for a pipelined unit (`read` reads them).
    func sealedStatements(_ statements: [String], as role: String? = nil) -> [SQL] {
        statements.flatMap { statement -> [SQL] in
            ["savepoint \(raw: Self.savepoint)", SQL(raw: statement), Self.identitySQL, guardSQL(as: role),
             "release savepoint \(raw: Self.savepoint)"]
        }
    }

    /// A statement that fails (22012), stopping the rest of its pipelined unit, unless
    /// the transaction, `current_user` (`role`, or the admin) and `session_user` are
    /// the expected ones.
    func guardSQL(as role: String? = nil) -> SQL {
        PipelineGuard.unless(
            """
            (txid_current()::text, current_user::text, session_user::text) \
            = (\(transactionID)::text, \(role ?? adminRole)::text, \(sessionUser)::text)
            """)
    }

    /// Reads the outcomes of `sealedStatements` (the first `statements * 5` of
    /// `outcomes`): each statement's result, its own error thrown as is, or the seal's
    /// `AccessPlanError` when a statement changed the transaction or who runs the SQL.
    func read(_ outcomes: [PipelinedBatch.Outcome], statements: Int, as role: String? = nil,
              origin: String) throws -> [QueryResult] {
        var results: [QueryResult] = []
        for index in 0..<statements {
            let base = index * 5
            if case .error(let error) = outcomes[base] {
                throw broken(origin, "the runner's savepoint could not be made (\(error.message))")
            }
            results.append(try outcomes[base + 1].get())
            try check(identity: try outcomes[base + 2].get().rows.first ?? [], role: role, after: origin)
            _ = try outcomes[base + 3].get()
            if case .error(let error) = outcomes[base + 4] {
                throw broken(origin, "the runner's savepoint is gone (\(error.message))")
            }
        }
        return results
    }

    /// Checks that the run's transaction and identity are intact.
    func verify(role: String? = nil, after origin: String) throws {
        guard connection.transactionStatus == .inTransaction else {
            throw broken(origin, "the run's transaction is no longer open")
        }
        try check(identity: try connection.query(Self.identitySQL).rows.first ?? [], role: role, after: origin)
    }

    /// Checks a row of `identitySQL` read inside the run (e.g. in a `ProbeBatch`):
    /// the same transaction, `current_user` the expected role, `session_user` unchanged.
    func check(identity row: [String?], role: String? = nil, after origin: String) throws {
        let seen = row.map { $0 ?? "" }
        guard seen.count >= 3, seen[0] == transactionID else {
            throw broken(origin, "the run's transaction was ended and another begun")
        }
        let expected = role ?? adminRole
        guard seen[1] == expected, seen[2] == sessionUser else {
            throw broken(
                origin,
                "it changed who runs the SQL (current_user \(seen[1]), session_user \(seen[2]); expected \(expected), \(sessionUser))")
        }
    }

    private func broken(_ origin: String, _ what: String) -> AccessPlanError {
        AccessPlanError(
            file: source, line: nil,
            message: "\(origin) broke the run's seal: \(what); the run was stopped and rolled back")
    }
}
