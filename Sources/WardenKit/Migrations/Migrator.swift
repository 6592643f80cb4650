import Foundation
import WardenPostgres

/// Applies and rolls back migrations: plans with `MigrationPlanner`, then runs each
/// migration through a `MigrationSession` and records it in a `MigrationHistory`,
/// under the run lock.
///
/// Each migration and its history change commit together (one transaction), unless
/// its section is marked `transaction:false`: then it runs one statement at a time,
/// after a history row marks it failed, and that mark is lifted only when it finishes.
/// The first failure stops the run; what earlier migrations did stays.
package final class Migrator {
    package let directory: MigrationDirectory
    /// The history rows.
    package let history: MigrationHistory
    /// What runs the migrations' SQL, transactions and the run lock.
    package let session: MigrationSession
    /// Receives progress events.
    package var observer: (MigrationEvent) -> Void = { _ in }
    /// How long a migration statement waits for a lock before it gives up (55P03).
    package var ddlLockTimeout: Duration = .seconds(5)
    /// How many times a migration that gave up waiting for a lock is rolled back and
    /// run again (with growing pauses) before the run fails naming the blockers.
    package var lockRetries = 3
    /// The first pause before a retry; each later one is twice as long, up to `longestPause`.
    package var retryPause: Duration = .milliseconds(500)
    package var longestPause: Duration = .seconds(4)
    private let clock = ContinuousClock()
    private var currentFile: MigrationFile?
    /// A migration finished and the session reset after it is not sent yet.
    private var sessionNeedsReset = false

    package var files: [MigrationFile] { directory.files }

    package init(directory: MigrationDirectory, history: MigrationHistory, session: MigrationSession) {
        self.directory = directory
        self.history = history
        self.session = session
    }

    /// A migrator on one PostgreSQL connection (history and session share it). The
    /// history is shared with the Supabase CLI's (`SharedMigrationHistory`): versions it
    /// recorded count as applied; with `supabaseHistory`, pgwarden records there too.
    package convenience init(directory: MigrationDirectory, connection: Connection, supabaseHistory: Bool = false) {
        self.init(
            directory: directory, history: Self.history(directory, connection, supabaseHistory),
            session: PostgresMigrationSession(connection: connection))
    }

    static func history(_ directory: MigrationDirectory, _ connection: Connection, _ supabaseHistory: Bool)
        -> MigrationHistory
    {
        SharedMigrationHistory(
            own: PostgresMigrationHistory(connection: connection), connection: connection, files: directory.files,
            recordsInSupabaseHistory: supabaseHistory)
    }

    /// Loads and validates the folder first (bad input changes nothing and needs no
    /// server), then connects.
    package static func open(folder: String, settings: ConnectionSettings, supabaseHistory: Bool = false) throws
        -> Migrator
    {
        let directory = try MigrationDirectory.load(folder)
        let session = try PostgresMigrationSession.connect(settings)
        let migrator = Migrator(
            directory: directory, history: history(directory, session.connection, supabaseHistory), session: session)
        session.connection.onNotice { [weak migrator] notice in migrator?.serverNotice(notice) }
        return migrator
    }

    /// Every migration's state (reads the history; takes no lock, changes nothing).
    package func status() throws -> MigrationStatusReport {
        let records = try history.records()
        return MigrationStatusReport(
            entries: MigrationStatusEntry.entries(files: files, records: records),
            skipped: directory.skipped, orderNotes: MigrationOrderNotes.lines(directory, records: records))
    }

    /// Warns about each `.sql` file skipped because its name is not a migration's.
    private func warnAboutSkippedFiles() {
        for path in directory.skipped {
            observer(.warning("\(path): skipped: not a migration file name (<version>_<name>.sql)"))
        }
    }

    /// Applies pending migrations in the folder's order, up to and including `target`.
    /// A pending migration that comes before an applied one is applied after them, with
    /// a warning (history is never reordered).
    package func up(to target: MigrationVersion? = nil, allowDrift: Bool = false, dryRun: Bool = false,
                   lockTimeout: Duration? = .seconds(60)) throws -> MigrationRun
    {
        let plan = { [self] in
            try MigrationPlanner.up(files: files, records: try history.records(), to: target,
                                    allowDrift: allowDrift, folder: directory.path)
        }
        warnAboutSkippedFiles()
        if dryRun { return Self.dryRun(.up, plan: try plan().map { ($0, MigrationDirection.up) }) }
        return try locked(lockTimeout) {
            let pending = try plan()
            warnAboutDrift(allowDrift: allowDrift)
            if !pending.isEmpty, let outOfOrder = MigrationOrderNotes.outOfOrderPending(directory, records: try history.records()) {
                observer(.warning(outOfOrder))
            }
            var run = MigrationRun(command: .up, dryRun: false)
            let started = ContinuousClock.now
            if !pending.isEmpty { try history.ensureTable() }
            for file in pending {
                try perform(file, .up, record: nil, run: &run)
            }
            run.elapsed = ContinuousClock.now - started
            return run
        }
    }

    /// Rolls back applied migrations, newest first, running their down sections.
    package func down(_ target: DownTarget = .steps(1), dryRun: Bool = false, lockTimeout: Duration? = .seconds(60)) throws
        -> MigrationRun
    {
        let plan = { [self] in
            try MigrationPlanner.down(files: files, records: try history.records(), target: target,
                                      folder: directory.path)
        }
        if dryRun { return Self.dryRun(.down, plan: try plan().map { ($0.file, MigrationDirection.down) }) }
        return try locked(lockTimeout) {
            var run = MigrationRun(command: .down, dryRun: false)
            let started = ContinuousClock.now
            for step in try plan() {
                warnIfModified(step)
                try perform(step.file, .down, record: step.record, run: &run)
            }
            run.elapsed = ContinuousClock.now - started
            return run
        }
    }

    /// Rolls back the newest applied migration and applies it again from its file.
    package func redo(allowDrift: Bool = false, dryRun: Bool = false, lockTimeout: Duration? = .seconds(60))
        throws -> MigrationRun
    {
        let plan = { [self] in
            try MigrationPlanner.redo(files: files, records: try history.records(), allowDrift: allowDrift,
                                      folder: directory.path)
        }
        if dryRun { return Self.dryRun(.redo, plan: try plan().map { [($0.file, .down), ($0.file, .up)] } ?? []) }
        return try locked(lockTimeout) {
            var run = MigrationRun(command: .redo, dryRun: false)
            let started = ContinuousClock.now
            guard let step = try plan() else { return run }
            try perform(step.file, .down, record: step.record, run: &run)
            try perform(step.file, .up, record: nil, run: &run)
            run.elapsed = ContinuousClock.now - started
            return run
        }
    }

    /// Settles a migration marked failed, after someone checked the database.
    @discardableResult
    package func resolve(_ version: MigrationVersion, as resolution: MigrationResolution, lockTimeout: Duration? = .seconds(60)) throws
        -> MigrationRecord?
    {
        try locked(lockTimeout) {
            guard let record = try history.records().first(where: { $0.parsedVersion == version }) else {
                if files.contains(where: { $0.version == version }) {
                    throw MigrationRefusal.notFailed(version: version.text, state: .pending)
                }
                throw MigrationInputError.unknownVersion(version: version.text, folder: directory.path)
            }
            guard record.state == .failed else {
                throw MigrationRefusal.notFailed(version: record.version, state: .applied)
            }
            switch resolution {
            case .rolledBack:
                try history.delete(version: record.version)
                return nil
            case .applied:
                var settled = record
                settled.state = .applied
                settled.error = nil
                if let file = files.first(where: { $0.version == version }) {
                    settled.checksum = file.checksum
                    settled.name = file.name
                }
                try history.update(settled)
                return settled
            }
        }
    }

    // MARK: - Running

    /// Runs `body` holding the run lock; the session reset left pending by the last
    /// migration runs before the lock is released, so the session ends clean.
    private func locked<T>(_ timeout: Duration?, _ body: () throws -> T) throws -> T {
        try session.acquireLock(timeout: timeout) { observer(.waitingForLock(timeout: timeout)) }
        defer { session.releaseLock() }
        let value: T
        do {
            value = try body()
        } catch {
            try? resetPendingSession()
            throw error
        }
        try resetPendingSession()
        return value
    }

    /// Sends the session reset the last migration left pending, if any.
    private func resetPendingSession() throws {
        guard sessionNeedsReset else { return }
        sessionNeedsReset = false
        try session.resetSession()
    }

    private static func dryRun(_ command: MigrationRun.Command, plan: [(MigrationFile, MigrationDirection)]) -> MigrationRun {
        MigrationRun(command: command, dryRun: true, steps: plan.map { file, direction in
            MigrationRun.Step(version: file.version.text, name: file.name, direction: direction, duration: nil)
        })
    }

    private func perform(_ file: MigrationFile, _ direction: MigrationDirection, record: MigrationRecord?,
                         run: inout MigrationRun) throws
    {
        guard let section = file.section(direction) else {
            throw MigrationRefusal.irreversible(file: file.path, reason: file.irreversibility ?? "no down section")
        }
        currentFile = file
        defer { currentFile = nil }
        noteDroppedTransactionControl(section)
        observer(.started(version: file.version.text, name: file.name, direction: direction))
        let runner = SectionRunner(
            history: history, session: session, file: file, section: section, direction: direction, record: record,
            earlierInRun: run.stepCount(direction), lockTimeout: ddlLockTimeout)
        // The reset the last migration left pending goes with this one's BEGIN (once).
        if !section.options.transaction { try resetPendingSession() }
        var resetFirst = sessionNeedsReset
        sessionNeedsReset = false
        let milliseconds = try withLockRetries(file) { retry in
            defer { resetFirst = false }
            return section.options.transaction
                ? try runner.runInTransaction(resetFirst: resetFirst)
                : try runner.runStatementByStatement(retryLockWait: retry)
        }
        run.append(MigrationRun.Step(
            version: file.version.text, name: file.name, direction: direction, duration: .milliseconds(milliseconds)))
        observer(.finished(version: file.version.text, name: file.name, direction: direction, duration: .milliseconds(milliseconds)))
        sessionNeedsReset = true
    }

    /// Runs `body`; when it gave up waiting for a lock (55P03, rolled back), pauses and
    /// runs it again, up to `lockRetries` times, watching who blocks it, and finally
    /// fails naming the blocking sessions. `body` gets the same rule for one statement
    /// of a `transaction:false` section (the statement did not run, so it runs again).
    private func withLockRetries(_ file: MigrationFile, _ body: (_ retry: (Int, PGError) -> Bool) throws -> Int) throws
        -> Int
    {
        var attempt = 0
        while true {
            let watch = session.watchBlockers(after: ddlLockTimeout / 2)
            defer { watch?.pause() }
            var statementBlockers: [BlockingSession] = []
            do {
                let milliseconds = try body { statementAttempt, _ in
                    guard statementAttempt < self.lockRetries else { return false }
                    statementBlockers = watch?.pause() ?? []
                    self.pauseBeforeRetry(file, attempt: statementAttempt)
                    return true
                }
                return milliseconds
            } catch let failure as MigrationSQLFailure where failure.postgresError?.sqlState == .lockNotAvailable {
                let blockers = watch?.pause() ?? []
                if failure.outcome == .rolledBack, attempt < lockRetries {
                    pauseBeforeRetry(file, attempt: attempt)
                    attempt += 1
                    continue
                }
                let attempts = failure.outcome == .rolledBack ? attempt + 1 : lockRetries + 1
                throw MigrationLockWaitFailure(
                    failure: failure, attempts: attempts, lockTimeout: ddlLockTimeout,
                    blockers: blockers.isEmpty ? statementBlockers : blockers)
            }
        }
    }

    private func pauseBeforeRetry(_ file: MigrationFile, attempt: Int) {
        let pause = min(retryPause * (1 << min(attempt, 10)), longestPause)
        observer(.warning("\(file.path): waited \(MigrationLockWaitFailure.seconds(ddlLockTimeout)) for a lock held by "
            + "another session; rolled back, retrying in \(MigrationLockWaitFailure.seconds(pause)) "
            + "(retry \(attempt + 1) of \(lockRetries))"))
        Thread.sleep(forTimeInterval: pause.inSeconds)
    }

    /// The one-line note for a file whose top-level BEGIN/COMMIT pairs are dropped.
    private func noteDroppedTransactionControl(_ section: MigrationSection) {
        guard !section.droppedStatements.isEmpty else { return }
        let source = SourceText(section.sql)
        let lines = section.droppedStatements.map { index in
            source.location(ofOffset: section.statements[index].range.lowerBound).line + section.startLine - 1
        }
        observer(.note("\(section.path): its BEGIN/COMMIT (lines \(lines.map(String.init).joined(separator: ", "))) "
            + "are dropped: it runs in pgwarden's own transaction, with its history row"))
    }

    private func warnAboutDrift(allowDrift: Bool) {
        guard allowDrift, let records = try? history.records() else { return }
        for entry in MigrationStatusEntry.entries(files: files, records: records)
        where entry.state == .modified || entry.state == .missing {
            observer(.warning("drift allowed: " + MigrationRefusal.describeDrift(entry)))
        }
    }

    private func warnIfModified(_ step: DownStep) {
        // A version the Supabase CLI applied has no checksum to compare.
        if step.record.origin != .supabaseCLI && step.file.checksum != step.record.checksum {
            observer(.warning("\(step.file.path) was modified after it was applied; rolling back with its current down section"))
        }
    }

    func serverNotice(_ notice: PGNotice) {
        guard notice.severity == "WARNING" else { return }
        let place = currentFile.map { "\($0.path): " } ?? ""
        observer(.warning("\(place)server WARNING: \(notice.message)"))
    }
}
