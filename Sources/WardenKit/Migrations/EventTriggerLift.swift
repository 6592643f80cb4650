import WardenPostgres

/// A migration's `CREATE EVENT TRIGGER`, run as Supabase runs it for `postgres`.
///
/// PostgreSQL lets only a superuser create an event trigger. On Supabase, supautils
/// runs `postgres`'s CREATE EVENT TRIGGER as the superuser and makes postgres its owner
/// (Supabase's docs, "Event Triggers"; a psychology clinic's first migration, which
/// turns on row-level security for every new table with one, stopped on the twin with
/// 42501; round thirty-six). PostgreSQL fires no event trigger for event-trigger
/// commands, so the twin cannot see one coming from inside the server. Where the twin's
/// two functions are (`Twin/TwinEventTriggers.sql`), the statement is sent between
/// them, inside the migration's transaction: postgres is a superuser for that one
/// statement, each its own protocol message, and a failure rolls the lift back with
/// everything else; so is a `DO` block that does nothing but create one
/// (`EventTriggerBlock`). Elsewhere (Supabase itself, plain PostgreSQL) it is sent as it is.
enum EventTriggerLift {
    /// Runs `statement` on `connection`, in its transaction: between the twin's lift and
    /// its end where the server has them (one catalog query first: such statements are
    /// rare), else as it is; throws as `execute(unsafeStatements:)` does, the statement's
    /// own error at its own index. Not for a connection outside a transaction block: a
    /// lift whose end never ran would stay.
    static func execute(_ statement: String, on connection: Connection) throws {
        let lifts = try connection.fetchBool("""
            select to_regprocedure('extensions.pgwarden_postgres_lift()') is not null
                   and to_regprocedure('extensions.pgwarden_postgres_lift_end()') is not null
            """)
        try connection.execute(unsafeStatements: lifts
            ? ["select extensions.pgwarden_postgres_lift()", statement, "select extensions.pgwarden_postgres_lift_end()"]
            : [statement])
    }
}
