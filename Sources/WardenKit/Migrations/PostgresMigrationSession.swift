import Foundation
import WardenPostgres

/// Runs migrations on a PostgreSQL connection: a session-level advisory lock that
/// serializes migrators on one database, the connection's transactions, migration
/// SQL and COPY.
package final class PostgresMigrationSession: MigrationSession {
    /// The advisory lock key every pgwarden run takes (the ASCII bytes of "pgwarden").
    /// Advisory locks belong to one database, so runs on other databases never wait.
    package static let lockKey: Int64 = 0x7067_7761_7264_656E

    /// The connection migrations run on.
    package let connection: Connection

    package init(connection: Connection) {
        self.connection = connection
        prepareSession()
    }

    /// Connects; a failure is one line (libpq's multi-line message joined), redacted.
    package static func connect(_ settings: ConnectionSettings) throws -> PostgresMigrationSession {
        do {
            return PostgresMigrationSession(connection: try Connection(settings))
        } catch var error as PGError {
            error.message = error.message.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
            throw error
        }
    }

    /// Session settings for every migration: on PostgreSQL 14+, notice a vanished
    /// client (a killed pgwarden) within seconds, so its work is rolled back and its
    /// lock released instead of running on.
    ///
    /// `standard_conforming_strings` is set on: the statement splitter and the
    /// migrations' meaning assume it (see `SettingCheck`).
    ///
    /// Each is tried in a unit of its own: one the server refuses (an older server, a
    /// pooler) is skipped without stopping the other. Those that worked are the ones
    /// sent again after every reset (`sessionSettings`).
    private func prepareSession() {
        var candidates: [SQL] = ["set standard_conforming_strings = on"]
        if connection.serverVersion >= 140_000 { candidates.append("set client_connection_check_interval = '2s'") }
        var batch = PipelinedBatch()
        for setting in candidates { batch.add([setting]) }
        let outcomes = (try? connection.run(batch)) ?? []
        sessionSettings = zip(candidates, outcomes).compactMap { setting, outcome in
            (try? outcome.first?.get()) != nil ? setting : nil
        }
    }

    /// The session settings the server accepted (`prepareSession`).
    private var sessionSettings: [SQL] = []

    /// This session's server process id (cached).
    private lazy var backendPID: Int? = try? connection.fetchOne("select pg_backend_pid()")?.int(0)

    /// Polls `pg_try_advisory_lock` rather than blocking in `pg_advisory_lock`: a
    /// statement blocked on the lock is an open transaction with a snapshot, which a
    /// `CREATE INDEX CONCURRENTLY` in the running migration would wait for: a deadlock.
    package func acquireLock(timeout: Duration?, onWait: () -> Void) throws {
        if try tryLock() { return }
        onWait()
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        var pause = Duration.milliseconds(50)
        while deadline.map({ clock.now < $0 }) ?? true {
            Thread.sleep(forTimeInterval: pause.inSeconds)
            if try tryLock() { return }
            pause = min(pause * 2, .milliseconds(500))
        }
        throw MigrationRefusal.lockTimeout(waited: timeout ?? .zero)
    }

    private func tryLock() throws -> Bool {
        try connection.fetchBool("select pg_try_advisory_lock(\(Self.lockKey))")
    }

    package func releaseLock() {
        assert(held == nil, "a held COMMIT is sent before the run lock is released")
        _ = try? connection.query("select pg_advisory_unlock(\(Self.lockKey))")
    }

    /// The COMMIT `inTransaction` held: the statements that go before it (the history
    /// write) and whom to tell once it committed. While it is held, the connection is
    /// still in that transaction.
    private var held: (closing: [SQL], committed: () -> Void)?

    /// Always holds the COMMIT (see `MigrationSession.inTransaction`).
    package func inTransaction(resetFirst: Bool, lockTimeout: Duration, committed: @escaping () -> Void,
                               _ body: (TransactionOpening) throws -> [SQL]) throws {
        guard held != nil || connection.transactionStatus == .idle else {
            throw APIMisuse("a transaction is already open on the migration session")
        }
        let opening = TransactionOpening { [self] statements in
            try begin(resetFirst: resetFirst, lockTimeout: lockTimeout, then: statements)
        }
        let closing: [SQL]
        do {
            closing = try body(opening)
            try opening.sendIfPending()
        } catch let failure as HeldCommitFailure {
            // The earlier transaction did not commit (or its answer was lost): roll back
            // what is open; nothing of this one ran.
            if connection.isOpen && connection.transactionStatus != .idle { try? connection.rollBack(after: failure) }
            throw failure
        } catch {
            // Nothing of this transaction was sent: the earlier one's COMMIT still waits.
            if held != nil {
                try sendHeldCommit()
                throw error
            }
            if connection.transactionStatus != .idle { try connection.rollBack(after: error) }
            throw error
        }
        held = (closing, committed)
    }

    /// How many statements at the start of the unit being read are the held COMMIT's
    /// (the history write, then COMMIT); 0 when none is.
    private var heldStatementsInFlight = 0

    package var isReadingHeldCommit: Bool {
        guard heldStatementsInFlight > 0, let reading = connection.readingStatement else { return false }
        return reading.index < heldStatementsInFlight
    }

    package func sendHeldCommit() throws {
        guard let pending = held else { return }
        held = nil
        heldStatementsInFlight = pending.closing.count + 1
        defer { heldStatementsInFlight = 0 }
        do {
            try connection.commit(after: pending.closing)
        } catch {
            throw HeldCommitFailure(underlying: error)
        }
        pending.committed()
    }

    /// Refuses to send anything while a COMMIT is held: it would run in the held
    /// transaction (the Migrator sends the held COMMIT first).
    private func checkNothingHeld() throws {
        if held != nil { throw APIMisuse("a held COMMIT must be sent (sendHeldCommit) before anything else") }
    }

    /// One round trip, one unit: a held COMMIT (with the history write before it), the
    /// pending reset (as `resetSession` sends it), BEGIN,
    /// `set_config('lock_timeout', ..., true)`, then `statements`. The first that fails
    /// stops the rest; the caller rolls back what is open. When the held COMMIT did not
    /// commit, throws `HeldCommitFailure` (nothing after it ran); once it did, tells
    /// its owner before reading the rest.
    private func begin(resetFirst: Bool, lockTimeout: Duration, then statements: [String]) throws {
        let pending = held
        held = nil
        let heldPart: [SQL] = pending.map { $0.closing + ["commit"] } ?? []
        let opening = (resetFirst ? resetStatements : []) + ["begin", Self.lockTimeoutSQL(lockTimeout, local: true)]
        var outcomes: [PipelinedBatch.Outcome]
        heldStatementsInFlight = heldPart.count
        defer { heldStatementsInFlight = 0 }
        do {
            outcomes = try connection.run(unit: heldPart + opening + statements.map { SQL(raw: $0) })
        } catch {
            // Lost with the held COMMIT on its way: the server may have committed it.
            if pending != nil { throw HeldCommitFailure(underlying: TransactionError(phase: .commit, underlying: error)) }
            // Lost with statements on their way: a statement's failure (nothing committed).
            throw statements.isEmpty ? TransactionError(phase: .begin, underlying: error) : error
        }
        if let pending {
            do {
                try Connection.checkCommitted(Array(outcomes.prefix(heldPart.count)))
            } catch {
                throw HeldCommitFailure(underlying: error)
            }
            pending.committed()
            outcomes.removeFirst(heldPart.count)
        }
        for (index, outcome) in outcomes.enumerated() {
            guard case .error(var error) = outcome else { continue }
            switch index {
            case opening.count - 2: throw TransactionError(phase: .begin, underlying: error)
            case opening.count...:
                error.completedStatements = index - opening.count
                throw error
            default: throw error  // a reset, or the lock timeout
            }
        }
    }

    package var isInTransaction: Bool { connection.transactionStatus == .inTransaction }

    package func execute(statements: [String]) throws {
        try checkNothingHeld()
        try connection.execute(unsafeStatements: statements)
    }

    package func executeEventTriggerCreation(_ statement: String) throws {
        try checkNothingHeld()
        try EventTriggerLift.execute(statement, on: connection)
    }

    package func transactionSettings(including names: [String]) throws -> [String: String] {
        try checkNothingHeld()
        return try ConnectionTransactionSettings(connection).transactionSettings(including: names)
    }

    package func restoreTransactionSettings(_ before: [String: String], keeping sessionNames: Set<String>) throws {
        try checkNothingHeld()
        try ConnectionTransactionSettings(connection).restoreTransactionSettings(before, keeping: sessionNames)
    }

    /// `reset all` and `reset role`, so a migration's session-level SET does not leak
    /// into the next one; then pgwarden's own session settings again. One round trip
    /// (pipelined, each statement its own protocol message).
    package func resetSession() throws {
        try checkNothingHeld()
        for outcome in try connection.run(unit: resetStatements) { _ = try outcome.get() }
    }

    /// The resets and the session settings, in one unit: the first that fails stops the
    /// rest (the settings are those the server accepted at the start).
    private var resetStatements: [SQL] { ["reset all", "reset role"] + sessionSettings }

    package func setLockTimeout(_ timeout: Duration) throws {
        try checkNothingHeld()
        try connection.query(Self.lockTimeoutSQL(timeout, local: false))
    }

    private static func lockTimeoutSQL(_ timeout: Duration, local: Bool) -> SQL {
        "select set_config('lock_timeout', \(max(1, timeout.wholeMilliseconds))::text, \(local))"
    }

    package func copyIn(_ statement: String, data: String) throws {
        try checkNothingHeld()
        try connection.copyIn(unsafeStatement: statement, data: data)
    }

    /// The session's one watch, made at the first period (its thread starts then).
    private var blockerWatch: BlockerWatch?

    package func watchBlockers(after delay: Duration) -> BlockerWatch? {
        if blockerWatch == nil, let backendPID {
            blockerWatch = BlockerWatch(settings: connection.settings, pid: backendPID)
        }
        blockerWatch?.watch(after: delay)
        return blockerWatch
    }

    deinit { blockerWatch?.stop() }

    package var isConnected: Bool { connection.isOpen }

    package func reconnectAndReadRecords() -> [MigrationRecord]? {
        guard let fresh = try? Connection(connection.settings) else { return nil }
        return try? PostgresMigrationHistory(connection: fresh).records()
    }
}
