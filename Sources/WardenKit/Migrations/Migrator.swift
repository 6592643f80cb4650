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
    /// The migration whose COMMIT is held, to go with the next one's BEGIN in one round
    /// trip (`MigrationSession.inTransaction`): its step, reported once
    /// it committed, and its runner, which says how it failed otherwise.
    private var held: HeldMigration?
    /// Server WARNINGs of one shape in a row, reported once with a count.
    private var warnings = ServerWarningGroup()
    /// Steps whose held COMMIT committed, not yet added to the run.
    private var committedSteps: [MigrationRun.Step] = []
    /// The next migration's events, waiting for the held one before it to commit (so
    /// progress is reported in order: that one finished, then this one started).
    private var waitingEvents: [MigrationEvent] = []

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
            try sendHeldCommit(into: &run)
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
                if let warning = modifiedWarning(step) {
                    try sendHeldCommit(into: &run)  // the warning comes after the last step's line
                    observer(warning)
                }
                try perform(step.file, .down, record: step.record, run: &run)
            }
            try sendHeldCommit(into: &run)
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
            try sendHeldCommit(into: &run)
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
        defer { flushWarnings() }
        let value: T
        do {
            value = try body()
        } catch {
            // A COMMIT still held belongs to a migration that succeeded.
            try? session.sendHeldCommit()
            held = nil
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

    /// Runs one migration. A transactional one's COMMIT is held and goes with the next
    /// one's BEGIN (or alone, `sendHeldCommit(into:)`): one round trip a migration. Its
    /// step is added and reported once it committed; the next one's statements run
    /// only then (they are in the same unit, after the COMMIT).
    private func perform(_ file: MigrationFile, _ direction: MigrationDirection, record: MigrationRecord?,
                         run: inout MigrationRun) throws
    {
        guard let section = file.section(direction) else {
            try sendHeldCommit(into: &run)
            throw MigrationRefusal.irreversible(file: file.path, reason: file.irreversibility ?? "no down section")
        }
        if !section.options.transaction { try sendHeldCommit(into: &run) }
        currentFile = file
        defer { currentFile = nil }
        let events = [droppedTransactionControlNote(section)].compactMap { $0 }
            + [.started(version: file.version.text, name: file.name, direction: direction)]
        if held == nil { events.forEach(observer) } else { waitingEvents = events }
        let runner = SectionRunner(
            history: history, session: session, file: file, section: section, direction: direction, record: record,
            // A failure of this one comes after the held one committed.
            earlierInRun: run.stepCount(direction) + (held?.step?.direction == direction ? 1 : 0),
            lockTimeout: ddlLockTimeout)
        // The reset the last migration left pending goes with this one's BEGIN (once).
        if !section.options.transaction { try resetPendingSession() }
        var resetFirst = sessionNeedsReset
        sessionNeedsReset = false
        let this = HeldMigration(runner: runner)
        let milliseconds: Int
        do {
            milliseconds = try withLockRetries(file) { retry in
                defer { resetFirst = false }
                return section.options.transaction
                    ? try runner.runInTransaction(resetFirst: resetFirst, committed: { [weak self] in
                        this.committed = true
                        self?.heldCommitted(this)
                    })
                    : try runner.runStatementByStatement(retryLockWait: retry)
            }
        } catch let failure as HeldCommitFailure {
            // The migration before this one did not commit; nothing of this one ran.
            throw try heldFailure(failure)
        }
        let step = MigrationRun.Step(
            version: file.version.text, name: file.name, direction: direction, duration: .milliseconds(milliseconds))
        run.append(contentsOf: committedSteps)
        committedSteps = []
        if section.options.transaction && !this.committed {
            this.step = step
            held = this
        } else {
            complete(step, into: &run)  // a session that cannot hold a COMMIT committed it already
        }
        sessionNeedsReset = true
    }

    /// Reports a committed step and adds it to the run.
    private func complete(_ step: MigrationRun.Step, into run: inout MigrationRun) {
        run.append(step)
        reportFinished(step)
    }

    private func reportFinished(_ step: MigrationRun.Step) {
        observer(.finished(version: step.version, name: step.name, direction: step.direction, duration: step.duration ?? .zero))
    }

    /// Called by the session once the held COMMIT committed: the held migration is
    /// done (reported now; added to the run by the next `perform` or
    /// `sendHeldCommit(into:)`), and the next one's events follow.
    private func heldCommitted(_ migration: HeldMigration) {
        guard let done = migration.step else { return }  // committed before `perform` returned
        held = nil
        committedSteps.append(done)
        reportFinished(done)
        waitingEvents.forEach(observer)
        waitingEvents = []
    }

    /// Sends the held COMMIT alone, if any, and adds its step to the run.
    private func sendHeldCommit(into run: inout MigrationRun) throws {
        if held != nil {
            do {
                try session.sendHeldCommit()
            } catch let failure as HeldCommitFailure {
                throw try heldFailure(failure)
            }
        }
        run.append(contentsOf: committedSteps)
        committedSteps = []
    }

    /// The held migration's own failure, for a held COMMIT that did not commit.
    private func heldFailure(_ failure: HeldCommitFailure) throws -> Error {
        waitingEvents = []
        guard let earlier = held else { return failure.underlying }
        held = nil
        currentFile = earlier.runner.file
        return try earlier.runner.failure(ofHeldCommit: failure)
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

    /// The one-line note for a file whose top-level BEGIN/COMMIT pairs are dropped, or
    /// whose COMMIT is honoured.
    private func droppedTransactionControlNote(_ section: MigrationSection) -> MigrationEvent? {
        if let pair = section.honouredCommit {
            return .note("\(section.path): its BEGIN/COMMIT (lines \(pair.begin), \(pair.commit)) add an enum value that "
                + "a later statement uses, which PostgreSQL allows only once it is committed: the file runs as the "
                + "Supabase CLI runs it, one statement at a time with its own COMMIT; if a later statement fails, what "
                + "it committed stays and the history marks it failed")
        }
        if let control = section.implicitTransactionControl {
            return .note("\(section.path): line \(control.line) is \(control.what); \(control.how): the file runs as the "
                + "CLI runs it, one statement at a time with its own COMMITs; if a later statement fails, what it committed "
                + "stays and the history marks it failed")
        }
        guard !section.droppedStatements.isEmpty else { return nil }
        let source = SourceText(section.sql)
        let lines = section.droppedStatements.map { index in
            source.location(ofOffset: section.statements[index].range.lowerBound).line + section.startLine - 1
        }
        if section.statements.allSatisfy({ $0.kind != .begin }) {
            return .note("\(section.path): its COMMIT (line\(lines.count == 1 ? "" : "s") \(lines.map(String.init).joined(separator: ", "))), "
                + "with no BEGIN before it, \(lines.count == 1 ? "is" : "are") dropped: nothing after it needs what it commits, "
                + "and the file runs in pgwarden's own transaction, with its history row")
        }
        return .note("\(section.path): its BEGIN/COMMIT (lines \(lines.map(String.init).joined(separator: ", "))) "
            + "are dropped: it runs in pgwarden's own transaction, with its history row")
    }

    private func warnAboutDrift(allowDrift: Bool) {
        guard allowDrift, let records = try? history.records() else { return }
        for entry in MigrationStatusEntry.entries(files: files, records: records)
        where entry.state == .modified || entry.state == .missing {
            observer(.warning("drift allowed: " + MigrationRefusal.describeDrift(entry)))
        }
    }

    /// The warning for a migration rolled back with a file changed since it was applied.
    private func modifiedWarning(_ step: DownStep) -> MigrationEvent? {
        // A version the Supabase CLI applied has no checksum to compare.
        guard step.record.origin != .supabaseCLI && step.file.checksum != step.record.checksum else { return nil }
        return .warning("\(step.file.path) was modified after it was applied; rolling back with its current down section")
    }

    func serverNotice(_ notice: PGNotice) {
        guard notice.severity == "WARNING" else { return }
        // A WARNING raised at a held COMMIT is the held migration's.
        let file = session.isReadingHeldCommit ? held?.runner.file ?? currentFile : currentFile
        let place = file.map { "\($0.path): " } ?? ""
        for line in warnings.add(notice.message, place: place) { observer(.warning(line)) }
    }

    /// Reports the server WARNINGs held back as repeats of the last one.
    private func flushWarnings() {
        for line in warnings.flush() { observer(.warning(line)) }
    }
}

/// A migration whose COMMIT may be held (`Migrator.perform`): its runner (which says
/// how it failed when the COMMIT does not commit), and, once `perform` returned, its
/// step, reported when the COMMIT committed.
private final class HeldMigration {
    let runner: SectionRunner
    var step: MigrationRun.Step?
    var committed = false

    init(runner: SectionRunner) {
        self.runner = runner
    }
}
