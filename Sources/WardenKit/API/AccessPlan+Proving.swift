import Foundation

extension AccessPlan {
    /// Reads and checks a plan file (mistakes throw `AccessPlanError` with the line),
    /// with the settings (access token hook, `[api]`) of the `supabase/config.toml`
    /// beside it, else of the Supabase project at `projectRoot`.
    public init(contentsOf file: URL, projectRoot: URL? = nil) throws {
        // As given: messages name it so.
        self = try AccessPlanParser.load(path: file.relativePath, projectRoot: projectRoot?.relativePath)
    }

    /// Proves the plan on a database: acts as every persona, compares what each sees
    /// and may change with the plan, and leaves nothing behind. On an idle connection
    /// the run is one transaction that is rolled back; inside the caller's transaction
    /// it is a savepoint that is rolled back, and the caller's own work stays.
    ///
    /// - Parameters:
    ///   - connection: a connection as the project owner (on Supabase, `postgres`), who
    ///     may switch to every persona's role.
    ///   - limits: how long any statement of the run may wait for a lock, and run; past
    ///     either, the run is rolled back and throws `AccessPlanTimeout`.
    public func prove(on connection: Connection, limits: AccessPlanLimits = .init()) throws -> AccessPlanReport {
        try prove(on: connection, limits: limits, catalogSession: nil)
    }

    /// `prove(on:limits:)` with the run's second session already being opened (with
    /// `connection`'s settings): on an idle connection the run reads the committed
    /// catalog on it while it creates the users and runs the setup, so one started
    /// together with `connection` is ready when the run begins. It is closed when the
    /// run is done with it (or, unused, when released); nil: the run opens it itself.
    public func prove(
        on connection: Connection, limits: AccessPlanLimits, catalogSession: ConnectionInBackground?
    ) throws -> AccessPlanReport {
        try run(on: connection, limits: limits) { $0.catalogSession = catalogSession }
    }

    /// Starts, on `session`, the reads of the committed catalog that a run of this plan
    /// makes on its second session, before the run: `pgwarden test` starts them as soon
    /// as the plan is read, while its own session is still opening (issue 18). Nothing
    /// is written; each read is a read-only transaction that is rolled back. Give them
    /// to `prove(on:limits:catalogReads:)` with the same limits. The session is closed
    /// once they are done, used or not.
    public func startCatalogReads(on session: ConnectionInBackground, limits: AccessPlanLimits) -> CatalogReadsInBackground {
        CatalogReadsInBackground(connect: { try session.connection() }, plan: self, limits: limits)
    }

    /// `prove(on:limits:)` with this plan's reads of the catalog already started
    /// (`startCatalogReads(on:limits:)`; nil: none were). Reads started for another plan
    /// or other limits, or a connection inside a transaction, leave the run to read on
    /// its own sessions, as `prove(on:limits:)` does; the reads are then waited for and
    /// closed.
    public func prove(
        on connection: Connection, limits: AccessPlanLimits, catalogReads: CatalogReadsInBackground?
    ) throws -> AccessPlanReport {
        try run(on: connection, limits: limits) { $0.catalogReads = catalogReads }
    }

    /// A run of this plan on `connection` with `limits`, its runner set up by `configure`.
    private func run(
        on connection: Connection, limits: AccessPlanLimits, _ configure: (inout AccessPlanRunner) -> Void
    ) throws -> AccessPlanReport {
        var runner = AccessPlanRunner(connection: connection, plan: self)
        runner.limits = limits
        configure(&runner)
        return try runner.run()
    }
}
