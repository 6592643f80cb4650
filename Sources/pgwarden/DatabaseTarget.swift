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
}
