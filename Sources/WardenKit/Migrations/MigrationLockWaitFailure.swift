/// A migration kept waiting for a lock another session holds: each attempt gave up
/// after `lockTimeout` (SQLSTATE 55P03), was rolled back and retried, and the last
/// one failed too. Names the sessions that held the lock.
public struct MigrationLockWaitFailure: WardenError {
    /// The last attempt's failure (its outcome says what the database holds).
    public let failure: MigrationSQLFailure
    /// How many times the migration (or, without a transaction, the statement) ran.
    public let attempts: Int
    public let lockTimeout: Duration
    /// The sessions seen blocking the last attempt (empty when none could be read).
    public let blockers: [BlockingSession]

    public var category: ErrorCategory { .lockTimeout }

    public var description: String {
        let lines = failure.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let waited = "waited \(Self.seconds(lockTimeout)) for a lock \(attempts) time\(attempts == 1 ? "" : "s")"
        var result = Array(lines.dropLast())
        result.append("\(failure.file.path): \(waited); gave up")
        if blockers.isEmpty {
            result.append("blocking sessions: none seen (they may have ended); see pg_stat_activity and pg_locks")
        } else {
            result.append("blocking sessions (end them, or run when they are done):")
            result += blockers.map { "  \($0)" }
        }
        result += lines.suffix(1)
        return result.joined(separator: "\n")
    }

    /// A wait as the messages show it: `60 s`, or `1500 ms` when not whole seconds.
    public static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
