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
        let row = try connection.query(Self.identitySQL).rows.first ?? []
        func field(_ index: Int) -> String { index < row.count ? (row[index] ?? "") : "" }
        return RunSeal(
            connection: connection, source: source, transactionID: field(0), adminRole: field(1),
            sessionUser: field(2), roleSetting: field(3))
    }

    private static let identitySQL: SQL =
        "select txid_current()::text, current_user::text, session_user::text, current_setting('role')"

    /// Runs plan SQL statement by statement (as whoever is current: the admin, or the
    /// persona `role` a check switched to), checking the seal after each. A statement's
    /// own error is rethrown as the `PGError` it is, its savepoint rolled back.
    @discardableResult
    func run(_ sql: String, as role: String? = nil, origin: String) throws -> [QueryResult] {
        var results: [QueryResult] = []
        for statement in SealedSQL.statements(of: sql) {
            do {
                results += try connection.savepoint {
                    // One statement per protocol message: text the splitter took for one
                    // statement but that holds two is refused by the server (42601).
                    let produced = try connection.execute(unsafeStatement: statement)
                    try verify(role: role ?? adminRole, after: origin)
                    return [produced]
                }
            } catch let error as TransactionError {
                if let broken = error.underlying as? AccessPlanError { throw broken }
                throw broken(origin, "the runner's savepoint is gone (\(error))")
            }
        }
        return results
    }

    /// Checks that the run's transaction and identity are intact.
    func verify(role: String? = nil, after origin: String) throws {
        guard connection.transactionStatus == .inTransaction else {
            throw broken(origin, "the run's transaction is no longer open")
        }
        let row = try connection.query(Self.identitySQL).rows.first ?? []
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
