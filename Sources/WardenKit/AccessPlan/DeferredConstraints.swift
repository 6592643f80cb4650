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
/// the setup, and the deferred constraints deferred again by name (`settleSQL`):
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
        select string_agg(name, ', ' order by name) from (
          select format('%I.%I', n.nspname, c.conname) as name
          from pg_catalog.pg_constraint c join pg_catalog.pg_namespace n on n.oid = c.connamespace
          group by n.nspname, c.conname
          having bool_or(c.condeferred) and bool_and(c.condeferrable)) deferred
        """

    static func read(from result: QueryResult) -> DeferredConstraints {
        DeferredConstraints(names: result.scalar.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Whether the probes fire them (any exists).
    var exist: Bool { names != nil }

    /// Fires what the setup left pending, then defers these again: their mode is what
    /// a client's transaction starts with.
    var settleSQL: [SQL] {
        guard let names else { return [] }
        return [Self.firingSQL, "set constraints \(raw: names) deferred"]
    }

    /// Fires every pending check, as a commit would.
    static let firingSQL: SQL = "set constraints all immediate"
}
