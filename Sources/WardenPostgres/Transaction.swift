/// A failure of the transaction machinery itself, told apart by phase.
///
/// An error thrown by the transaction's body is rethrown unchanged when the rollback
/// succeeds (so callers can still match its SQLSTATE). When the rollback fails too,
/// the body's error is kept as `underlying` and the rollback's as `rollbackError`:
/// a failed rollback never hides the error that caused it.
public struct TransactionError: Error, CustomStringConvertible {
    public enum Phase: String, Sendable {
        case begin, rollback, commit
    }

    public var phase: Phase
    /// The error of that phase; for `.rollback`, the body's error that caused it.
    public var underlying: Error
    /// For `.rollback`: why the rollback itself failed.
    public var rollbackError: Error?

    public var description: String {
        switch phase {
        case .begin: return "could not begin transaction: \(underlying)"
        case .commit: return "could not commit transaction: \(underlying)"
        case .rollback:
            return "\(underlying)\n(and the rollback failed too: \(rollbackError.map { "\($0)" } ?? "unknown"))"
        }
    }
}

extension Connection {
    /// Runs `body` inside BEGIN ... COMMIT; rolls back if it throws.
    ///
    /// A COMMIT that the server turns into a ROLLBACK (the transaction had already
    /// failed) is reported as a `.commit` error, never as success.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        do {
            try execute("begin")
        } catch {
            throw TransactionError(phase: .begin, underlying: error)
        }
        let value: T
        do {
            value = try body()
        } catch {
            do {
                try execute("rollback")
            } catch let rollbackError {
                throw TransactionError(phase: .rollback, underlying: error, rollbackError: rollbackError)
            }
            throw error
        }
        try commit()
        return value
    }

    /// Runs `body` inside a savepoint of the current transaction; on error, rolls back
    /// to the savepoint (the transaction stays usable) and rethrows.
    @discardableResult
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointCounter += 1
        let name = "pgwarden_sp_\(savepointCounter)"
        do {
            try execute("savepoint \(name)")
        } catch {
            throw TransactionError(phase: .begin, underlying: error)
        }
        do {
            let value = try body()
            try execute("release savepoint \(name)")
            return value
        } catch {
            do {
                try execute("rollback to savepoint \(name); release savepoint \(name)")
            } catch let rollbackError {
                throw TransactionError(phase: .rollback, underlying: error, rollbackError: rollbackError)
            }
            throw error
        }
    }

    private func commit() throws {
        let tag: String
        do {
            tag = try execute("commit").last?.commandTag ?? ""
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
