/// A failure of the transaction machinery itself, told apart by phase.
///
/// An error thrown by the transaction's body is rethrown unchanged when the rollback
/// succeeds (so callers can still match its SQLSTATE). When the rollback fails too,
/// the body's error is kept as `underlying` and the rollback's as `rollbackError`:
/// a failed rollback never hides the error that caused it.
public struct TransactionError: WardenError {
    public enum Phase: String, Sendable {
        case begin, rollback, commit
    }

    public var phase: Phase
    /// The error of that phase; for `.rollback`, the body's error that caused it.
    public var underlying: Error
    /// For `.rollback`: why the rollback itself failed.
    public var rollbackError: Error?

    public init(phase: Phase, underlying: Error, rollbackError: Error? = nil) {
        self.phase = phase
        self.underlying = underlying
        self.rollbackError = rollbackError
    }

    /// The underlying error's category.
    public var category: ErrorCategory { underlying.wardenCategory }

    public var description: String {
        switch phase {
        case .begin: return "could not begin transaction: \(underlying)"
        case .commit: return "could not commit transaction: \(underlying)"
        case .rollback:
            return "\(underlying)\n(and the rollback failed too: \(rollbackError.map { "\($0)" } ?? "unknown"))"
        }
    }
}

/// How a transaction ends when its body returns normally.
public enum TransactionOutcome: Sendable {
    case commit, rollback
}

extension Connection {
    /// Runs `body` in a transaction that ends as the body says: `.commit` or
    /// `.rollback`. If the body throws, the transaction is rolled back and the error
    /// rethrown. Throws `APIMisuse` when a transaction is already open: nesting is done
    /// with `savepoint` or `rolledBack`.
    public func inTransaction(_ body: () throws -> TransactionOutcome) throws {
        guard transactionStatus == .idle else {
            throw APIMisuse("a transaction is already open on this connection: nest with savepoint or rolledBack")
        }
        try runTransaction { ((), try body()) }
    }

    /// Runs `body` so that nothing it does stays: in a transaction that is rolled back
    /// when the connection is idle, or in a savepoint that is rolled back when the
    /// caller's transaction is open (the caller's own work is kept).
    @discardableResult
    public func rolledBack<T>(_ body: () throws -> T) throws -> T {
        if transactionStatus == .idle {
            return try runTransaction { (try body(), .rollback) }
        }
        return try rolledBackSavepoint(body)
    }

    /// `rolledBack`, and when it was a transaction of its own that the body ended
    /// normally, every statement the body's pipelined batches prepared is deallocated
    /// in the rollback's round trip (issue 18: the access plan's run, one round trip
    /// fewer). What is left prepared (inside a caller's transaction, or after an error)
    /// is for `deallocatePreparedStatements()`.
    package func rolledBackDeallocating<T>(_ body: () throws -> T) throws -> T {
        if transactionStatus == .idle {
            return try runTransaction(deallocating: true) { (try body(), .rollback) }
        }
        return try rolledBackSavepoint(body)
    }

    /// Runs `body` inside a savepoint that is always rolled back (and released), so
    /// the transaction stays usable and holds nothing of what the body did.
    @discardableResult
    public func rolledBackSavepoint<T>(_ body: () throws -> T) throws -> T {
        try runSavepoint(.rollback, body)
    }

    /// Runs `body` inside BEGIN ... COMMIT; rolls back if it throws.
    ///
    /// A COMMIT that the server turns into a ROLLBACK (the transaction had already
    /// failed) is reported as a `.commit` error, never as success.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try runTransaction { (try body(), .commit) }
    }

    /// BEGIN, the body, then COMMIT or ROLLBACK as it says (ROLLBACK if it throws):
    /// each phase's failure reported as such, a failed rollback never hiding the
    /// body's error.
    private func runTransaction<T>(deallocating: Bool = false, _ body: () throws -> (T, TransactionOutcome)) throws -> T {
        do {
            try execute("begin")
        } catch {
            throw TransactionError(phase: .begin, underlying: error)
        }
        let (value, outcome): (T, TransactionOutcome)
        do {
            (value, outcome) = try body()
        } catch {
            try rollBack(after: error)
            throw error
        }
        switch outcome {
        case .commit: try commit()
        case .rollback:
            do {
                if deallocating { try rollBackDeallocatingPreparedStatements() } else { try execute("rollback") }
            } catch {
                throw TransactionError(phase: .rollback, underlying: error)
            }
        }
        return value
    }

    /// ROLLBACK, then a DEALLOCATE for each statement pipelined batches prepared, in one
    /// unit (one round trip; a prepared statement is the session's: the rollback does
    /// not remove it). The rollback's error is thrown; a failed DEALLOCATE skips the
    /// rest of the unit, and the names from it on stay listed for
    /// `deallocatePreparedStatements()`.
    private func rollBackDeallocatingPreparedStatements() throws {
        let outcomes = try run(unit: ["rollback"] + deallocations)
        _ = try outcomes[0].get()
        preparedStatements.removeFirst(outcomes.dropFirst().prefix(while: \.succeeded).count)
    }

    /// Runs `body` inside a savepoint of the current transaction; on error, rolls back
    /// to the savepoint (the transaction stays usable) and rethrows.
    @discardableResult
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try runSavepoint(.commit, body)
    }

    /// SAVEPOINT, the body, then RELEASE (`.commit`) or ROLLBACK TO and RELEASE
    /// (`.rollback`); if the body (or the release) throws, rolled back to the
    /// savepoint and rethrown, a failed rollback never hiding the body's error.
    private func runSavepoint<T>(_ outcome: TransactionOutcome, _ body: () throws -> T) throws -> T {
        let name = nextSavepointName()
        do {
            try execute("savepoint \(raw: name)")
        } catch {
            throw TransactionError(phase: .begin, underlying: error)
        }
        let value: T
        do {
            value = try body()
            if outcome == .commit { try execute("release savepoint \(raw: name)") }
        } catch {
            try rollback(to: name, after: error)
            throw error
        }
        if outcome == .rollback {
            do {
                try rollBackAndRelease(savepoint: name)
            } catch {
                throw TransactionError(phase: .rollback, underlying: error)
            }
        }
        return value
    }

    /// `rollback to savepoint` then `release savepoint`, in one round trip (pipelined,
    /// each its own protocol message): undoes everything since the savepoint `name`
    /// (a name the caller made, sent as it is) and removes it.
    public func rollBackAndRelease(savepoint name: String) throws {
        try execute(["rollback to savepoint \(raw: name)", "release savepoint \(raw: name)"])
    }

    /// A savepoint name unique on this connection.
    private func nextSavepointName() -> String {
        savepointCounter += 1
        return "pgwarden_sp_\(savepointCounter)"
    }

    private func rollback(to savepoint: String, after error: Error) throws {
        do {
            try rollBackAndRelease(savepoint: savepoint)
        } catch let rollbackError {
            throw TransactionError(phase: .rollback, underlying: error, rollbackError: rollbackError)
        }
    }

    /// ROLLBACK after `error` (the transaction's own failure); a rollback that fails too
    /// throws `TransactionError` with phase `.rollback`, carrying both errors.
    package func rollBack(after error: Error) throws {
        do {
            try execute("rollback")
        } catch let rollbackError {
            throw TransactionError(phase: .rollback, underlying: error, rollbackError: rollbackError)
        }
    }

    /// `closing` then COMMIT, pipelined in one unit (one round trip): COMMIT runs only
    /// when every closing statement did. A closing statement's error is thrown as it
    /// is, after a rollback; a COMMIT that fails, whose answer is lost (the server may
    /// have committed), or that the server turned into a ROLLBACK (the transaction had
    /// failed) throws `TransactionError` with phase `.commit`.
    package func commit(after closing: [SQL] = []) throws {
        let outcomes: [PipelinedBatch.Outcome]
        do {
            outcomes = try run(unit: closing + ["commit"])
        } catch {
            throw TransactionError(phase: .commit, underlying: error)
        }
        do {
            try Self.checkCommitted(outcomes)
        } catch let error where !(error is TransactionError) {
            try rollBack(after: error)
            throw error
        }
    }

    /// Reads the outcomes of closing statements and the COMMIT after them (the last
    /// one), sent in one unit: a closing statement's error is thrown as it is (the
    /// transaction is still open, failed: the caller rolls back); a COMMIT that failed
    /// or that the server turned into a ROLLBACK throws `TransactionError` with phase
    /// `.commit`.
    package static func checkCommitted(_ outcomes: [PipelinedBatch.Outcome]) throws {
        for outcome in outcomes.dropLast() { _ = try outcome.get() }
        let tag: String
        do {
            tag = try (outcomes.last ?? .skipped).get().commandTag
        } catch {
            throw TransactionError(phase: .commit, underlying: error)
        }
        if tag == "ROLLBACK" {
            let aborted = PGError(
                kind: .server,
                message: "the transaction had failed, so COMMIT rolled it back",
                sqlState: .inFailedTransaction)
            throw TransactionError(phase: .commit, underlying: aborted)
        }
    }
}
