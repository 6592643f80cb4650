import Foundation
import WardenPostgres

/// The run's reads of the committed catalog, made on a second session of the same
/// user, on a thread of its own, while the run's session creates the users, runs the
/// setup and signs the personas in (issue 18: on the local socket they were about a
/// tenth of the run's server time, all of it on the run's one backend; over a link,
/// round trips that now overlap the run's own).
///
/// They are the exposed catalog with the plan checked against it (`PlanCatalogCheck`),
/// and the notes on what the run cannot prove or undo (`AccessPlanRunner.noteQueries`).
/// They read what is committed: the run uses them only when it begins its own
/// transaction (the connection was idle), and the plan is checked against the catalog
/// as it was before anything of the run, as when the run read it first. Every read is
/// `read only` and rolled back; the session is closed before `resolved` or `notes`
/// returns, and `wait()` closes it whatever ended the run.
///
/// When the session cannot be opened (the server's connection slots are full, a
/// pooler's limit), `opened()` says so before the run creates anything, and the run
/// reads on its own session, as before. The notes wait for a lock at most
/// `notesLockTimeout`: one of them opens the relations whose policies it reads, and
/// the run's own setup may hold a lock on one (`create policy`); rather than wait for
/// the run (which may wait for it), they are then read on the run's session at its
/// end, as before.
final class CatalogReadsInBackground: @unchecked Sendable {
    /// How long a note's read waits for a lock on the second session.
    static let notesLockTimeout = "100ms"

    private let connected = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Written by the reading thread before the matching semaphore is signalled, read
    /// only after waiting for it.
    private var isOpen = false
    private var resolvedOutcome: Result<PlanCatalogCheck.Resolved, any Error>?
    private var notesOutcome: Result<[[String]], any Error>?
    private let lock = NSLock()
    private var waitedForConnection = false
    private var waitedForReads = false

    /// Starts the reads for `plan` on a new session opened with `settings`.
    init(settings: ConnectionSettings, plan: AccessPlan, limits: AccessPlanLimits, notes: [SQL]) {
        let thread = Thread { [self] in
            defer { finished.signal() }
            let connection = try? Connection(settings)
            isOpen = connection != nil
            connected.signal()
            guard let connection else { return }
            defer { connection.close() }
            read(on: connection, plan: plan, limits: limits, notes: notes)
        }
        thread.name = "pgwarden catalog"
        thread.start()
    }

    private func read(on connection: Connection, plan: AccessPlan, limits: AccessPlanLimits, notes: [SQL]) {
        resolvedOutcome = Result {
            // The session is this run's alone and closed after it: its settings are set
            // for the session, and every read below is a transaction of its own.
            try connection.query(
                """
                select set_config('default_transaction_read_only', 'on', false),
                       set_config('lock_timeout', \(max(1, limits.lockTimeout.wholeMilliseconds))::text, false),
                       set_config('statement_timeout', \(max(1, limits.statementTimeout.wholeMilliseconds))::text, false)
                """)
            let catalog = try ExposedCatalog.read(connection, schemas: plan.schemas, roles: plan.personas.map(\.role))
            return try PlanCatalogCheck(plan: plan, catalog: catalog, connection: connection).resolve()
        }
        notesOutcome = Result {
            try connection.execute("select set_config('lock_timeout', \(Self.notesLockTimeout), false)")
            return try AccessPlanRunner.readNotes(notes, on: connection)
        }
    }

    /// Whether the second session is open (waits for its start-up): when not, the run
    /// reads everything on its own session.
    func opened() -> Bool {
        lock.withLock {
            if !waitedForConnection {
                connected.wait()
                waitedForConnection = true
            }
        }
        return isOpen
    }

    /// Waits until the reads are done and the second session is closed.
    func wait() {
        lock.withLock {
            if !waitedForReads {
                finished.wait()
                waitedForReads = true
            }
        }
    }

    /// The plan resolved against the catalog. Throws the plan's mistakes, and what
    /// the read met, as the run's own read would have. Only after `opened()` is true.
    func resolved() throws -> PlanCatalogCheck.Resolved {
        wait()
        guard let resolvedOutcome else { preconditionFailure("the catalog was not read on the second session") }
        return try resolvedOutcome.get()
    }

    /// Whether the plan failed to resolve against the catalog (waits for the reads):
    /// the run reports that before an error of its own later steps, as when it checked
    /// the plan first.
    func resolutionFailure() -> (any Error)? {
        guard opened() else { return nil }
        wait()
        if case .failure(let error) = resolvedOutcome { return error }
        return nil
    }

    /// The notes' rows, or nil when they could not be read on the second session (it
    /// did not open; a lock it would have waited for): the run then reads them itself.
    func notes() -> [[String]]? {
        wait()
        return try? notesOutcome?.get()
    }
}
