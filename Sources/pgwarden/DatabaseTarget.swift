import Foundation
import WardenKit

/// Which database a command talks to: `--database-url`, else `DATABASE_URL`, else
/// libpq's own environment (`PGHOST`, `PGUSER`, `PGPASSWORD`, `~/.pgpass`, ...).
enum DatabaseTarget {
    /// The settings for an explicit URL (or conninfo string) or, when nil or empty,
    /// `DATABASE_URL`, else the libpq environment. Throws a redacted error when the
    /// string is malformed.
    static func settings(url: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> ConnectionSettings
    {
        if let url, !url.isEmpty { return try ConnectionSettings(url) }
        if let fromEnvironment = environment["DATABASE_URL"], !fromEnvironment.isEmpty {
            return try ConnectionSettings(fromEnvironment)
        }
        return .environment
    }

    /// True when no database is named at all: no `--database-url` (`url`), no
    /// `DATABASE_URL` and no libpq connection variable. Then `dev`'s twin is the one
    /// database there is (`plan draft` and `lint` run on one; a connection error says so).
    static func nothingGiven(url: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        (url ?? "").isEmpty
            && !["DATABASE_URL", "PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE"]
                .contains { environment[$0]?.isEmpty == false }
    }
}
