import WardenPostgres

/// The run's first round trip after `begin`: six statements of pgwarden's own, sent
/// as one pipelined unit (issue 18: five of them were five round trips, 50 ms over a
/// link of 10 ms). In order:
///
/// - the backend's pid, for the blocker watch (read inside the run's transaction, so
///   behind a pooler in transaction mode it is the backend that runs the plan);
/// - the run's limits, and the join order it plans with (`AccessPlanLimits`,
///   `JoinOrderSetting`), for the rest of the transaction;
/// - the seal's identity (`RunSeal`): who and where the run is;
/// - `storage.allow_delete_query`: personas reach storage tables through the storage
///   server, which marks every transaction it runs so that its deletes pass
///   `storage.protect_delete()`; with it, how many rows the catalogs the second
///   session reads hold of this session's writes not yet counted
///   (`CatalogReadsInBackground.catalogWritesSQL`);
/// - auth.identities' columns, for the plan's accounts (`PlanAccountCreator`), created
///   next, before any plan SQL runs;
/// - the initially deferred constraints (`DeferredConstraints`), which every write
///   probe fires.
///
/// None of them reads a table the plan's SQL could lock or change. A failed statement
/// skips the rest of the unit, and its error is thrown, as when each was sent alone.
struct RunOpening {
    let backendPID: Int?
    let seal: RunSeal
    /// The catalog-write count at the run's start (nil when it could not be read).
    let catalogWrites: String?
    /// auth.identities' columns (empty when there is no such table).
    let identityColumns: Set<String>
    let deferredConstraints: DeferredConstraints

    static func read(on connection: Connection, limits: AccessPlanLimits, source: String) throws -> RunOpening {
        let outcomes = try connection.run(unit: [
            "select pg_backend_pid()",
            limits.settingSQL(with: JoinOrderSetting.settings),
            RunSeal.identitySQL,
            "select set_config('storage.allow_delete_query', 'true', true), (\(CatalogReadsInBackground.catalogWritesSQL))",
            PlanAccountCreator.identityColumnsSQL,
            DeferredConstraints.namesSQL,
        ])
        // Read in order: the first error is the one the server met; the rest were skipped.
        let results = try outcomes.map { try $0.get() }
        return RunOpening(
            backendPID: results[0].scalar.flatMap { Int($0) },
            seal: RunSeal.captured(from: results[2], on: connection, source: source),
            catalogWrites: results[3].rows.first?.last ?? nil,
            identityColumns: PlanAccountCreator.identityColumns(from: results[4]),
            deferredConstraints: DeferredConstraints.read(from: results[5]))
    }
}
