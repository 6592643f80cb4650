import WardenPostgres

/// What a rolled-back run cannot undo, where the catalog shows a probe may reach it:
/// a trigger on an exposed table, or an exposed function, whose own code writes
/// through a second connection (`dblink`, a `postgres_fdw` foreign table), sends
/// `NOTIFY`, or runs `COPY ... TO PROGRAM`. pgwarden cannot stop those; it names them.
/// (Sequences advance in every run too; that is said in the README and `--help`.)
///
/// One level deep: the trigger function or exposed function itself, read from its
/// source text (`prosrc`), not the functions it calls.
enum UndoableSideEffects {
    /// The query: one line per trigger or function that may have such an effect, one a
    /// row (the run reads it with its other notes in one round trip).
    static func query(schemas: [String]) -> SQL {
        """
            with foreign_tables as (
              select c.relname from pg_foreign_table f join pg_class c on c.oid = f.ftrelid
            ), reached as (
              select format('trigger %s on %I.%I calls %s', t.tgname, n.nspname, c.relname, p.oid::regprocedure) as what,
                     p.prosrc
              from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
              join pg_proc p on p.oid = t.tgfoid
              where not t.tgisinternal and n.nspname = any(\(array: schemas)::text[])
              union all
              select format('function %s', p.oid::regprocedure), p.prosrc
              from pg_proc p join pg_namespace n on n.oid = p.pronamespace
              where n.nspname = any(\(array: schemas)::text[]) and p.prokind in ('f', 'p')
            )
            select what || ': ' || string_agg(effect, ', ' order by effect) from (
              select what, unnest(array_remove(array[
                case when prosrc ~* '\\mdblink' then 'writes through dblink (a second connection)' end,
                case when prosrc ~* '\\m(pg_notify|notify)\\M' then 'sends NOTIFY' end,
                case when prosrc ~* '\\mto\\s+program\\M' then 'runs COPY ... TO PROGRAM' end,
                case when exists (select from foreign_tables f where position(lower(f.relname) in lower(prosrc)) > 0)
                  then 'names a foreign table (postgres_fdw: a second connection)' end
              ], null)) as effect from reached
            ) found group by what order by 1
            """
    }
}
