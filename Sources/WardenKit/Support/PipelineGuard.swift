import WardenPostgres

/// A statement that fails with 22012 (division by zero) unless `condition` holds, so
/// that, placed in a pipelined unit, it stops the rest of the unit when pgwarden's
/// expectation (the run's transaction, who runs the SQL) no longer holds. Used by the
/// access plan's seal (`RunSeal`) and by pgTAP runs (`PgTAPRunner`).
enum PipelineGuard {
    static func unless(_ condition: SQL) -> SQL {
        // The division is by a stable function's value, not a constant, so the planner
        // cannot fold it into an error: it runs only when the condition is false.
        "select 1 where \(condition) or 1 / (0 * length(session_user::text)) = 1"
    }

    /// Whether `error` is a guard's own failure (and not one of the guarded SQL's).
    static func tripped(_ error: PGError) -> Bool {
        error.sqlState == .divisionByZero
    }
}
