import WardenPostgres

/// Runs one migration section and records it in the history, so that both happen
/// together (in one transaction), or, for `transaction:false`, so that the history
/// says "failed" until the last statement has run.
///
/// Statements run with `lock_timeout` set (`SET LOCAL` in the transaction), so a
/// migration that waits for a lock held by a long transaction gives up instead of
/// making every reader of that table queue behind it.
struct SectionRunner {
    let history: MigrationHistory
    let session: MigrationSession
    let file: MigrationFile
    let section: MigrationSection
    let direction: MigrationDirection
    /// The history row, for a rollback.
    let record: MigrationRecord?
    let earlierInRun: Int
    /// The longest a statement waits for a lock.
    let lockTimeout: Duration
    /// BEGIN; the section; insert (up) or delete (down) the history row; COMMIT.
    /// `resetFirst`: the session reset the last migration left pending goes with BEGIN.
    /// The session may hold the COMMIT, to go with the next migration's BEGIN
    /// (`MigrationSession.inTransaction`); `committed` is called once it committed;
    /// when it fails, `failure(ofHeldCommit:)` says how. A held COMMIT of the migration
    /// before this one that fails is thrown as the `HeldCommitFailure` it is. Returns
    /// the section's duration in milliseconds.
    func runInTransaction(resetFirst: Bool, committed: @escaping () -> Void) throws -> Int {
        let clock = ContinuousClock()
        var phase = MigrationSQLFailure.FailedStep.statement
        var current: SectionBatch?
        var milliseconds = 0
        var authorTransaction = AuthorTransaction(session: session)
        do {
            try session.inTransaction(resetFirst: resetFirst, lockTimeout: lockTimeout, committed: committed) { opening in
                let start = clock.now
                try SectionBatch.forEachBatch(of: section) { batch in
                    current = batch
                    if !opening.isSent, case .statements(let items) = batch.payload {
                        try opening.send(with: items.map(\.text))  // BEGIN and the first statements: one round trip
                    } else {
                        try opening.sendIfPending()
                        try run(batch, authorTransaction: &authorTransaction)
                    }
                    guard session.isInTransaction else { throw OwnTransactionEnded() }
                }
                try opening.sendIfPending()
                milliseconds = (clock.now - start).wholeMilliseconds
                phase = .history
                return try recordSuccess(milliseconds: milliseconds)
            }
            return milliseconds
        } catch let earlier as HeldCommitFailure {
            throw earlier
        } catch {
            throw try failure(error, phase: phase, current: current)
        }
    }

    /// This migration's failure when its held COMMIT, or its history write sent with
    /// it, did not commit (or its answer was lost).
    func failure(ofHeldCommit held: HeldCommitFailure) throws -> Error {
        var last: SectionBatch?
        SectionBatch.forEachBatch(of: section) { last = $0 }
        return try failure(held.underlying, phase: .history, current: last)
    }

    /// What a failed transaction's error means for this migration. The history write
    /// goes with COMMIT: a COMMIT that failed, or whose answer was lost, is the commit
    /// phase.
    private func failure(_ error: Error, phase: MigrationSQLFailure.FailedStep, current: SectionBatch?) throws -> Error {
        var phase = phase
        if let failure = error as? TransactionError, failure.phase == .commit { phase = .commit }
        let error = try Self.unwrap(error)
        if error is OwnTransactionEnded {
            try markFailed(error: "the \(direction.rawValue) section ended its own transaction (COMMIT or ROLLBACK)")
            return MigrationRefusal.transactionEnded(file: file.path, version: file.version.text, direction: direction)
        }
        let lost = error is PGError && ((error as? PGError)?.kind == .connection || !session.isConnected)
        let outcome = phase == .commit && lost ? outcomeAfterLostCommit() : .rolledBack
        let failing = current?.failingItem((error as? PGError)?.completedStatements)
        return MigrationSQLFailure(
            file: file, direction: direction, underlying: error, phase: phase,
            sentOffset: failing?.fileOffset ?? section.startOffset,
            statementIndex: phase == .statement ? failing?.index : nil, outcome: outcome, earlierInRun: earlierInRun)
    }

    /// The error behind a transaction's own failure: a failed BEGIN is rethrown as it
    /// was (nothing ran); a failed COMMIT or rollback gives the error that caused it.
    private static func unwrap(_ error: Error) throws -> Error {
        guard let failure = error as? TransactionError else { return error }
        if failure.phase == .begin { throw failure.underlying }
        return failure.underlying
    }

    /// For `transaction:false`: mark failed, run each statement on its own, then
    /// mark applied (up) or delete the row (down).
    func runStatementByStatement(retryLockWait: (Int, PGError) -> Bool) throws -> Int {
        try markFailed(error: "started without a transaction and has not finished (interrupted, or still running)")
        try session.setLockTimeout(lockTimeout)
        let clock = ContinuousClock()
        let start = clock.now
        for (index, statement) in section.statements.enumerated() {
            var attempt = 0
            while true {
                do {
                    var noAuthorTransaction = AuthorTransaction(session: session)
                    try run(SectionBatch.single(statement, index: index, section: section), authorTransaction: &noAuthorTransaction)
                    break
                } catch let error as PGError where error.sqlState == .lockNotAvailable && retryLockWait(attempt, error) {
                    attempt += 1  // the statement did not run; run it again
                } catch {
                    let failure = MigrationSQLFailure(
                        file: file, direction: direction, underlying: error, phase: .statement,
                        sentOffset: section.startOffset + statement.range.lowerBound, statementIndex: index,
                        outcome: .markedFailed(committedStatements: index), earlierInRun: earlierInRun)
                    try? markFailed(error: Self.firstLine(of: failure))
                    throw failure
                }
            }
        }
        let milliseconds = (clock.now - start).wholeMilliseconds
        switch direction {
        case .up: try history.update(newRecord(milliseconds: milliseconds, state: .applied, error: nil))
        case .down: try history.delete(version: record?.version ?? file.version.text)
        }
        return milliseconds
    }

    private func run(_ batch: SectionBatch, authorTransaction: inout AuthorTransaction) throws {
        switch batch.payload {
        case .statements(let items): try session.execute(statements: items.map(\.text))
        case .copy(let item, let data): try session.copyIn(item.text, data: data)
        case .authorBegin(let item): try authorTransaction.begin(section: section, at: item.index)
        case .authorCommit: try authorTransaction.commit()
        case .eventTriggerCreation(let item): try session.executeEventTriggerCreation(item.text)
        }
    }

    /// The connection died while COMMIT was on its way: the server may have committed
    /// or not. A new connection reads the history to tell.
    private func outcomeAfterLostCommit() -> MigrationSQLFailure.Aftermath {
        guard let records = session.reconnectAndReadRecords() else { return .unknown }
        let row = records.first { $0.parsedVersion == file.version }
        let committed = direction == .up ? row?.state == .applied && row?.checksum == file.checksum : row == nil
        return committed ? .committedDespiteLostConnection : .rolledBack
    }

    /// Inserts (up) or deletes (down) the history row: returns its statements for the
    /// session to send with COMMIT, or writes it now (and returns none) when the
    /// history cannot give them.
    private func recordSuccess(milliseconds: Int) throws -> [SQL] {
        let change: HistoryChange = direction == .up
            ? .insert(newRecord(milliseconds: milliseconds, state: .applied, error: nil))
            : .delete(version: record?.version ?? file.version.text)
        if let statements = history.statements(making: change) { return statements }
        switch change {
        case .insert(let record): try history.insert(record)
        case .delete(let version): try history.delete(version: version)
        }
        return []
    }

    /// Writes (outside any transaction) a history row that marks the migration failed.
    private func markFailed(error: String) throws {
        let what = direction == .up ? "" : "rollback: "
        if direction == .up, try !history.records().contains(where: { $0.parsedVersion == file.version }) {
            try history.insert(newRecord(milliseconds: 0, state: .failed, error: what + error))
        } else {
            var failed = record ?? newRecord(milliseconds: 0, state: .failed, error: nil)
            failed.state = .failed
            failed.error = what + error
            try history.update(failed)
        }
    }

    private func newRecord(milliseconds: Int, state: MigrationRecord.State, error: String?) -> MigrationRecord {
        MigrationRecord(
            version: file.version.text, name: file.name, checksum: file.checksum, durationMs: milliseconds,
            state: state, error: error)
    }

    static func firstLine(of failure: MigrationSQLFailure) -> String {
        String(failure.description.split(separator: "\n", maxSplits: 1).first ?? "")
    }
}

/// The section ran COMMIT or ROLLBACK itself.
private struct OwnTransactionEnded: Error {}
