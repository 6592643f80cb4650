import WardenPostgres

/// What the `Migrator` needs to run migrations on a database: the run lock,
/// a transaction per migration, migration SQL and COPY, `lock_timeout`, cancelling, watching blockers
/// and reconnecting. The history's rows are a `MigrationHistory`.
///
/// `PostgresMigrationSession` is the real one. Calls come from one thread.
package protocol MigrationSession: AnyObject {
    /// Takes the run lock that serializes migrators on one database, waiting at most
    /// `timeout` (nil: no limit). Calls `onWait` once before it starts waiting.
    /// Throws `MigrationRefusal.lockTimeout` when the time runs out.
    func acquireLock(timeout: Duration?, onWait: () -> Void) throws
    /// Releases the run lock (errors are ignored: closing the session releases it too).
    func releaseLock()
    /// Runs `body` in a transaction that commits when it returns (the connection
    /// layer's `inTransaction`). When the body throws, the transaction is rolled back
    /// and its error rethrown; a COMMIT that fails, or that the server turned into a
    /// ROLLBACK, throws `TransactionError` with phase `.commit`.
    func inTransaction(_ body: () throws -> Void) throws
    /// True while a transaction is open and not failed.
    var isInTransaction: Bool { get }
    /// Runs migration statements in order, each exactly one statement (pipelined on a
    /// real server); throws `PGError` whose `completedStatements` is the failing one's index.
    func execute(statements: [String]) throws
    /// The transaction-local state an author's COMMIT would end: every setting's value,
    /// `names` (custom settings such as `request.jwt.claims`) and the role.
    func transactionSettings(including names: [String]) throws -> [String: String]
    /// Sets back, for the rest of the transaction, the settings that changed since `before`.
    func restoreTransactionSettings(_ before: [String: String], keeping sessionNames: Set<String>) throws
    /// Undoes session settings a migration may have made, between migrations.
    func resetSession() throws
    /// Limits how long migration statements wait for a lock (`lock_timeout`): for the
    /// open transaction (`local`) or the session.
    func setLockTimeout(_ timeout: Duration, local: Bool) throws
    /// Runs one `COPY ... FROM STDIN` with its data rows.
    func copyIn(_ statement: String, data: String) throws
    /// Starts watching, from another session, which sessions block this one's
    /// statements; nil when it cannot.
    func watchBlockers(after delay: Duration) -> BlockerWatch?
    /// After a lost connection: connects again and reads the history (nil when the
    /// server cannot be reached).
    func reconnectAndReadRecords() -> [MigrationRecord]?
    /// False once the connection is lost.
    var isConnected: Bool { get }
}

extension MigrationSession {
    package func setLockTimeout(_ timeout: Duration, local: Bool) throws {}
    package func copyIn(_ statement: String, data: String) throws {
        throw PGError(kind: .client, message: "this session cannot run COPY FROM STDIN")
    }
    package func watchBlockers(after delay: Duration) -> BlockerWatch? { nil }
    package func transactionSettings(including names: [String]) throws -> [String: String] { [:] }
    package func restoreTransactionSettings(_ before: [String: String], keeping sessionNames: Set<String>) throws {}
    package func reconnectAndReadRecords() -> [MigrationRecord]? { nil }
    package var isConnected: Bool { true }
}
