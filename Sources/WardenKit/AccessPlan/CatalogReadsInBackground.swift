import Foundation
import WardenPostgres

/// The run's reads of the committed catalog, made on a second session of the same
/// user, on a thread of its own, while the run's session creates the users, runs the
/// setup and signs the personas in (issue 18: on the local socket they were about a
/// tenth of the run's server time, all of it on the run's one backend; over a link,
/// round trips that now overlap the run's own).
///
/// They are, in this order: the exposed catalog with the plan checked against it
/// (`PlanCatalogCheck`); what signing in reads (`SignInCatalog`); then the notes on
/// what the run cannot prove or undo (`AccessPlanRunner.noteQueries`). The first two
/// are ready before the notes are read (`resolved()` and `signInCatalog()` do not wait
/// for the notes). They read what is committed: the run uses them only when it begins
/// its own transaction (the connection was idle), and only as long as its own
/// transaction has not changed the catalogs they read (`catalogWritesSQL`, counted
/// after the setup; a setup that creates a trigger or alters a role has the run read
/// them again on its own session). Every read is `read only` and rolled back; the
/// session is closed before `notes()` returns, and `wait()` closes it whatever ended
/// the run.
///
/// A command may start them before the run, as soon as the plan is read
/// (`AccessPlan.startCatalogReads(on:limits:)`): `pgwarden test` does, so they run while
/// its own session is still starting (issue 18: they were the longest wait before the
/// truth).
///
/// When the session cannot be opened (the server's connection slots are full, a
/// pooler's limit), `opened()` says so before the run creates anything, and the run
/// reads on its own session, as before. The notes wait for a lock at most
/// `notesLockTimeout`: one of them opens the relations whose policies it reads, and
/// the run's own setup may hold a lock on one (`create policy`); rather than wait for
/// the run (which may wait for it), they are then read on the run's session at its
/// end, as before.
public final class CatalogReadsInBackground: @unchecked Sendable {
    /// How long a note's read waits for a lock on the second session.
    static let notesLockTimeout = "100ms"

    /// Left when the session is open or could not be opened; when the catalog and the
    /// sign-in's reads are done; when everything is done and the session is closed.
    private let connected = DispatchGroup(), catalogRead = DispatchGroup(), finished = DispatchGroup()
    /// Each written by the reading thread before the matching group is left, read only
    /// after waiting for it.
    private var isOpen = false
    private var resolvedOutcome: Result<PlanCatalogCheck.Resolved, any Error>?
    private var signInOutcome: Result<SignInCatalog, any Error>?
    private var notesOutcome: Result<[[String]], any Error>?

    /// The plan and limits the reads were started for: a run of another uses its own.
    let plan: AccessPlan
    let limits: AccessPlanLimits

    /// Starts the reads for `plan` on the session `connect` opens (or returns: one the
    /// caller started opening early), on a thread of its own.
    init(connect: @escaping @Sendable () throws -> Connection, plan: AccessPlan, limits: AccessPlanLimits) {
        self.plan = plan
        self.limits = limits
        let notes = AccessPlanRunner.noteQueries(for: plan)
        for group in [connected, catalogRead, finished] { group.enter() }
        let thread = Thread { [self] in
            defer { finished.leave() }
            let connection = try? connect()
            isOpen = connection != nil
            connected.leave()
            defer { connection?.close() }
            if let connection { readCatalog(on: connection, plan: plan, limits: limits) }
            catalogRead.leave()
            if let connection {
                notesOutcome = Result {
                    try connection.execute("select set_config('lock_timeout', \(Self.notesLockTimeout), false)")
                    return try AccessPlanRunner.readNotes(notes, on: connection)
                }
            }
        }
        thread.name = "pgwarden catalog"
        thread.start()
    }

    /// Everything in one round trip (issue 18: five before, one after another): the
    /// session's settings, the exposed catalog, the plan's schema and role questions,
    /// and what signing in reads, each in units of its own, so each fails alone as it
    /// did on its own round trip.
    private func readCatalog(on connection: Connection, plan: AccessPlan, limits: AccessPlanLimits) {
        let checkUnits = PlanCatalogCheck.units(for: plan)
        let signInQueries = SignInCatalog.queries(for: plan)
        var batch = PipelinedBatch()
        // The session is this run's alone and closed after it: its settings are set
        // for the session, and every read below is a transaction of its own.
        batch.add([
            """
            select set_config('default_transaction_read_only', 'on', false),
                   set_config('lock_timeout', \(max(1, limits.lockTimeout.wholeMilliseconds))::text, false),
                   set_config('statement_timeout', \(max(1, limits.statementTimeout.wholeMilliseconds))::text, false)
            """,
        ])
        for unit in checkUnits + CatalogReads.units(signInQueries) { batch.add(unit) }
        let outcomes: [[PipelinedBatch.Outcome]]
        do {
            outcomes = try connection.run(batch)
        } catch {
            (resolvedOutcome, signInOutcome) = (.failure(error), .failure(error))
            return
        }
        let signInUnits = 1 + checkUnits.count
        resolvedOutcome = Result {
            _ = try outcomes[0][0].get()
            return try PlanCatalogCheck(plan: plan, outcomes: outcomes[1..<signInUnits], connection: connection).resolve()
        }
        signInOutcome = Result {
            SignInCatalog(try CatalogReads.results(of: outcomes[signInUnits...], count: signInQueries.count)[...])
        }
    }

    /// Whether the second session is open (waits for its start-up): when not, the run
    /// reads everything on its own session.
    func opened() -> Bool {
        connected.wait()
        return isOpen
    }

    /// Waits until the reads are done and the second session is closed.
    public func wait() {
        finished.wait()
    }

    /// The plan resolved against the catalog. Throws the plan's mistakes, and what
    /// the read met, as the run's own read would have. Only after `opened()` is true.
    func resolved() throws -> PlanCatalogCheck.Resolved {
        catalogRead.wait()
        guard let resolvedOutcome else { preconditionFailure("the catalog was not read on the second session") }
        return try resolvedOutcome.get()
    }

    /// Whether the plan failed to resolve against the catalog (waits for that read):
    /// the run reports that before an error of its own later steps, as when it checked
    /// the plan first.
    func resolutionFailure() -> (any Error)? {
        guard opened() else { return nil }
        catalogRead.wait()
        if case .failure(let error) = resolvedOutcome { return error }
        return nil
    }

    /// What signing in reads, or nil when it could not be read on the second session:
    /// the run then reads it itself.
    func signInCatalog() -> SignInCatalog? {
        catalogRead.wait()
        return try? signInOutcome?.get()
    }

    /// The notes' rows, or nil when they could not be read on the second session (it
    /// did not open; a lock it would have waited for): the run then reads them itself.
    func notes() -> [[String]]? {
        wait()
        return try? notesOutcome?.get()
    }

    /// The rows this session has inserted, updated or deleted in the catalogs the
    /// second session reads, as its statistics count them (one number, as text). The
    /// count holds what earlier transactions wrote and has not yet been reported
    /// (PostgreSQL reports a session's counts between transactions, at most once a
    /// second), and grows with every row the transaction writes, rolled back or not;
    /// nothing is reported inside a transaction. So read at the run's start and again
    /// later, an equal count means the run has changed none of those catalogs, and what
    /// the second session read of them is what the run sees; a larger one, that the run
    /// (its setup) changed them, and the run reads them again itself.
    static let catalogWritesSQL: SQL = """
        select coalesce(sum(pg_catalog.pg_stat_get_xact_tuples_inserted(c) + pg_catalog.pg_stat_get_xact_tuples_updated(c)
                            + pg_catalog.pg_stat_get_xact_tuples_deleted(c)), 0)::text
        from unnest(array['pg_catalog.pg_class', 'pg_catalog.pg_attribute', 'pg_catalog.pg_namespace',
                          'pg_catalog.pg_proc', 'pg_catalog.pg_trigger', 'pg_catalog.pg_policy', 'pg_catalog.pg_rewrite',
                          'pg_catalog.pg_depend', 'pg_catalog.pg_extension', 'pg_catalog.pg_foreign_table',
                          'pg_catalog.pg_db_role_setting', 'pg_catalog.pg_authid',
                          'pg_catalog.pg_auth_members']::pg_catalog.regclass[]) c
        """
}
