import WardenPostgres

/// What the `Migrator` needs to run migrations on a database: the run lock,
/// a transaction per migration, migration SQL and COPY, `lock_timeout`, cancelling, watching blockers
/// and reconnecting. The history's rows are a `MigrationHistory`.
///
/// `PostgresMigrationSession` is the real one. Calls come from one thread.
package protocol MigrationSession: TransactionSettingsSession {
    /// Takes the run lock that serializes migrators on one database, waiting at most
    /// `timeout` (nil: no limit). Calls `onWait` once before it starts waiting.
    /// Throws `MigrationRefusal.lockTimeout` when the time runs out.
    func acquireLock(timeout: Duration?, onWait: () -> Void) throws
    /// Releases the run lock (errors are ignored: closing the session releases it too).
    func releaseLock()
    /// Runs `body` in a transaction with `lock_timeout` set for it, and commits it.
    ///
    /// The round trips are the cost, so BEGIN is not sent before `body` runs: the
    /// session reset a finished migration left pending (`resetFirst`, see
    /// `resetSession`), BEGIN and the lock timeout go with the first statements, when
    /// `body` sends them through its `TransactionOpening` (or alone, when it calls
    /// `sendIfPending()`, which it must before anything else reaches the server). The
    /// statements `body` returns (its history write) go together with COMMIT.
    ///
    /// A failed BEGIN throws `TransactionError` with phase `.begin`; a statement's
    /// error is thrown as `execute(statements:)` throws it; a closing statement's error
    /// is thrown as it is (nothing commits); a COMMIT that fails, that the server
    /// turned into a ROLLBACK, or whose answer was lost, throws `TransactionError` with
    /// phase `.commit`. When the body throws, the transaction is rolled back and its
    /// error rethrown.
    ///
    /// A session may hold the COMMIT (after the statements `body` returns) instead of
    /// sending it: it then goes in the same unit as the next transaction's opening,
    /// before it (so the next transaction's statements run only once this one
    /// committed: one round trip where there were two), or alone when
    /// `sendHeldCommit()` is called, which must be before anything else is sent.
    /// `committed` is called once the server confirmed the COMMIT (by a session that
    /// does not hold it, before this returns), before anything of the next transaction
    /// is reported; when a held COMMIT (or a statement before it) fails, the call that
    /// sent it throws `HeldCommitFailure`.
    func inTransaction(resetFirst: Bool, lockTimeout: Duration, committed: @escaping () -> Void,
                       _ body: (TransactionOpening) throws -> [SQL]) throws
    /// Sends the held COMMIT, if any (`inTransaction`).
    func sendHeldCommit() throws
    /// True while a transaction is open and not failed.
    var isInTransaction: Bool { get }
    /// Runs migration statements in order, each exactly one statement (pipelined on a
    /// real server); throws `PGError` whose `completedStatements` is the failing one's index.
    func execute(statements: [String]) throws
    /// Runs one `CREATE EVENT TRIGGER` of a migration in its transaction, as Supabase
    /// lets postgres run it where the server is pgwarden's twin (`EventTriggerLift`);
    /// throws as `execute(statements:)` does.
    func executeEventTriggerCreation(_ statement: String) throws
    /// Undoes session settings a migration may have made, between migrations. The
    /// `Migrator` sends it with the next migration's BEGIN (`inTransaction(resetFirst:)`)
    /// when it can, and calls this before anything else and at the end of a run.
    func resetSession() throws
    /// Limits how long migration statements wait for a lock (`lock_timeout`), for the
    /// session: a `transaction:false` section has no transaction of its own (a
    /// transaction gets its limit with its BEGIN, see `inTransaction`).
    func setLockTimeout(_ timeout: Duration) throws
    /// Runs one `COPY ... FROM STDIN` with its data rows.
    func copyIn(_ statement: String, data: String) throws
    /// Starts a period of watching, from another session, which sessions block this
    /// one's statements (the same watch every time: `pause()` it after); nil when it
    /// cannot.
    func watchBlockers(after delay: Duration) -> BlockerWatch?
    /// After a lost connection: connects again and reads the history (nil when the
    /// server cannot be reached).
    func reconnectAndReadRecords() -> [MigrationRecord]?
    /// False once the connection is lost.
    var isConnected: Bool { get }
    /// True while the answers to a held COMMIT (and the history write before it) are
    /// read: a server notice then is the held migration's (a deferred trigger's
    /// WARNING at COMMIT), not the one whose BEGIN travels with it.
    var isReadingHeldCommit: Bool { get }
}

extension MigrationSession {
    package func sendHeldCommit() throws {}
    package func setLockTimeout(_ timeout: Duration) throws {}
    package func copyIn(_ statement: String, data: String) throws {
        throw PGError(kind: .client, message: "this session cannot run COPY FROM STDIN")
    }
    package func watchBlockers(after delay: Duration) -> BlockerWatch? { nil }
    package func executeEventTriggerCreation(_ statement: String) throws { try execute(statements: [statement]) }
    package func transactionSettings(including names: [String]) throws -> [String: String] { [:] }
    package func restoreTransactionSettings(_ before: [String: String], keeping sessionNames: Set<String>) throws {}
    package func reconnectAndReadRecords() -> [MigrationRecord]? { nil }
    package var isConnected: Bool { true }
    package var isReadingHeldCommit: Bool { false }
}

/// A transaction's BEGIN, not sent yet: it goes with the first statements of the
/// transaction, in one round trip (`MigrationSession.inTransaction`).
package final class TransactionOpening {
    private let sendOpening: ([String]) throws -> Void
    /// True once BEGIN was sent (or tried).
    package private(set) var isSent = false

    package init(_ sendOpening: @escaping ([String]) throws -> Void) {
        self.sendOpening = sendOpening
    }

    /// Sends BEGIN and what goes with it, then `statements` (each its own protocol
    /// message, pipelined; a statement's error thrown as `execute(statements:)` does).
    package func send(with statements: [String]) throws {
        precondition(!isSent, "BEGIN is sent once")
        isSent = true
        try sendOpening(statements)
    }

    /// Sends BEGIN alone, unless it was sent.
    package func sendIfPending() throws {
        if !isSent { try send(with: []) }
    }
}

/// A held COMMIT (`MigrationSession.inTransaction`), or a statement
/// sent before it in its unit (the history write), failed: the transaction it was to
/// commit is rolled back, or, when its answer was lost, may have committed.
/// `underlying` is what `Connection.commit(after:)` would have thrown.
package struct HeldCommitFailure: Error {
    package let underlying: Error
}
