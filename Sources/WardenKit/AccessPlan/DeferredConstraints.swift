import WardenPostgres

/// The database's initially deferred constraints (`deferrable initially deferred`
/// foreign keys, unique keys, constraint triggers), which a client's request meets
/// only when its transaction commits. The run never commits, so without this a write
/// that such a constraint refuses was observed as going through ("insert: 1 row"
/// where the Data API answers 23503, or a deferred trigger's exception).
///
/// Each write probe ends with `set constraints all immediate` (`firingSQL`), which
/// fires every check still pending: the probe's own, after its whole statement and
/// every trigger of it, as at commit. The probe's rollback undoes the mode with the
/// rows. The checks the setup left pending would fire again in every probe (a
/// rollback to a savepoint marks them pending again), so they are fired once, after
/// the setup, and the deferred constraints deferred again by name (`settle`):
/// `set constraints all immediate` leaves every deferrable constraint immediate,
/// which is the default of all but these.
struct DeferredConstraints {
    /// The constraints' names, schema-qualified and quoted, comma-separated (nil: none).
    let names: String?

    static let none = DeferredConstraints(names: nil)

    /// One row, one column: the names (`names`), or NULL. A name that a constraint
    /// which is not deferrable shares in its schema is left out: `set constraints`
    /// refuses it (such a constraint stays immediate for the run: checked at the end
    /// of the statement, a little sooner than at commit).
    static let namesSQL: SQL = """
        select string_agg(distinct format('%I.%I', n.nspname, c.conname), ', ')
        from pg_catalog.pg_constraint c join pg_catalog.pg_namespace n on n.oid = c.connamespace
        where \(raw: deferredPredicate)
        """

    /// Which constraints of `pg_constraint c` are meant: initially deferred, and sharing
    /// their name in their schema with no constraint that is not deferrable.
    private static let deferredPredicate = """
        c.condeferred
          and not exists (select 1 from pg_catalog.pg_constraint o
                          where o.connamespace = c.connamespace and o.conname = c.conname and not o.condeferrable)
        """

    static func read(from result: QueryResult) -> DeferredConstraints {
        DeferredConstraints(names: result.scalar.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Whether the probes fire them (any exists).
    var exist: Bool { names != nil }

    /// Fires the checks the plan's accounts and setup left pending, once, then defers
    /// these again: their mode is what a client's transaction starts with. When a check
    /// refuses, the transaction is left as it was (the checks pending again) and
    /// `DeferredSetupRefusal` names each table whose constraints refused, and why.
    func settle(on connection: Connection, source: String) throws {
        guard let names else { return }
        var batch = PipelinedBatch()
        batch.add(["savepoint \(raw: Self.savepoint)", Self.firingSQL, "set constraints \(raw: names) deferred",
                   "release savepoint \(raw: Self.savepoint)"])
        guard let refused = Self.firstRefusal(try connection.run(batch)[0]) else { return }
        try connection.rollBackAndRelease(savepoint: Self.savepoint)
        // A lock wait or a long check is the run's limit, not the setup's refusal.
        if AccessPlanLimits.isLimit(refused) { throw refused }
        let refusals = try Self.refusalsByTable(on: connection)
        throw DeferredSetupRefusal(
            file: source, refusals: refusals.isEmpty ? [(table: "?", message: Self.describe(refused))] : refusals)
    }

    private static let savepoint = "pgwarden_deferred"

    /// The first server error among `outcomes`.
    private static func firstRefusal(_ outcomes: [PipelinedBatch.Outcome]) -> PGError? {
        for outcome in outcomes {
            if case .error(let error) = outcome { return error }
        }
        return nil
    }

    private static func describe(_ error: PGError) -> String {
        "\(error.message) (\(error.sqlState?.rawValue ?? "?????"))"
    }

    /// Each table's deferred constraints, `schema.name` -> their names as `settle`
    /// sends them.
    private static let namesByTableSQL: SQL = """
        select format('%s.%s', n.nspname, t.relname),
               string_agg(format('%I.%I', cn.nspname, c.conname), ', ' order by c.conname)
        from pg_catalog.pg_constraint c
          join pg_catalog.pg_namespace cn on cn.oid = c.connamespace
          join pg_catalog.pg_class t on t.oid = c.conrelid
          join pg_catalog.pg_namespace n on n.oid = t.relnamespace
        where \(raw: deferredPredicate)
        group by 1 order by 1
        """

    /// Fires each table's deferred constraints alone, each in a savepoint rolled back
    /// after it, all in one round trip: the tables whose checks refuse, with the error.
    private static func refusalsByTable(on connection: Connection) throws -> [(table: String, message: String)] {
        let tables: [(table: String, names: String)] = try connection.query(namesByTableSQL).rows.compactMap { row in
            guard row.count == 2, let table = row[0], let names = row[1] else { return nil }
            return (table, names)
        }
        var batch = PipelinedBatch()
        for table in tables {
            batch.add(["savepoint \(raw: savepoint)", "set constraints \(raw: table.names) immediate"])
            batch.add(["rollback to savepoint \(raw: savepoint)", "release savepoint \(raw: savepoint)"])
        }
        let units = try connection.run(batch)
        var refusals: [(table: String, message: String)] = []
        for (index, table) in tables.enumerated() {
            for outcome in units[index * 2 + 1] { _ = try outcome.get() }
            guard let error = firstRefusal(units[index * 2]) else { continue }
            if AccessPlanLimits.isLimit(error) { throw error }
            refusals.append((table.table, describe(error)))
        }
        return refusals
    }

    /// Fires every pending check, as a commit would.
    static let firingSQL: SQL = "set constraints all immediate"

    /// Fires the checks pending now and defers these constraints again, inside the
    /// caller's savepoint; a check that refuses is thrown (rolling the savepoint back
    /// undoes the rows that left it pending).
    func fireAndDeferAgain(on connection: Connection) throws {
        guard let names else { return }
        for outcome in try connection.run(unit: [Self.firingSQL, "set constraints \(raw: names) deferred"]) {
            _ = try outcome.get()
        }
    }
}
