import WardenPostgres

/// Returns every deferrable constraint to the mode a new transaction gives it, before
/// each pgTAP file: under pg_prove each file is a session of its own, and a
/// `set constraints all immediate` ends with it. In pgwarden's one transaction it did
/// not always: PostgreSQL undoes a `SET CONSTRAINTS` on a rollback to a savepoint only
/// when it was run at that savepoint's level, not inside a subtransaction that was
/// released first (pgTAP's `lives_ok`, a PL/pgSQL exception block in an RPC that
/// settles at once). So an expense file's RPC left a deferred "has payers" trigger
/// immediate for every file after it, and their inserts failed (23514).
///
/// SQL has no "default" mode to set, so each constraint is named with its own:
/// `set constraints ... deferred` for the initially deferred, `... immediate` for the
/// others. A mode set for a constraint by name outranks one set for all.
enum ConstraintModeReset {
    /// One statement, in the round trip that resets the file's session: the names are
    /// read as the file starts (an earlier file may have made the constraint), and the
    /// modes set at the run's own level (a DO block without an exception clause opens no
    /// subtransaction). A name that its schema gives to constraints of different modes,
    /// or to one that is not deferrable, is left out.
    static let statement: SQL = """
        do $pgwarden$
        declare deferred_names text; immediate_names text;
        begin
          select string_agg(distinct format('%I.%I', n.nspname, c.conname), ', ') filter (where c.condeferred),
                 string_agg(distinct format('%I.%I', n.nspname, c.conname), ', ') filter (where not c.condeferred)
            into deferred_names, immediate_names
          from pg_catalog.pg_constraint c join pg_catalog.pg_namespace n on n.oid = c.connamespace
          where c.condeferrable
            and not exists (select 1 from pg_catalog.pg_constraint o
                            where o.connamespace = c.connamespace and o.conname = c.conname
                              and (not o.condeferrable or o.condeferred <> c.condeferred));
          if deferred_names is not null then execute 'set constraints ' || deferred_names || ' deferred'; end if;
          if immediate_names is not null then execute 'set constraints ' || immediate_names || ' immediate'; end if;
        end
        $pgwarden$
        """
}
