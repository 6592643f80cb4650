import ArgumentParser
import Foundation
import PostgresClient

/// `--database-url`, shared by every command that talks to a database.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp(
            "Connection URL or key=value string (default: $DATABASE_URL, else libpq's PG* environment).",
            valueName: "url"))
    var databaseURL: String?

    /// The settings to connect with: the flag, else DATABASE_URL, else libpq's environment.
    func settings() throws -> ConnectionSettings {
        if let databaseURL { return try ConnectionSettings(databaseURL) }
        if let fromEnvironment = ProcessInfo.processInfo.environment["DATABASE_URL"], !fromEnvironment.isEmpty {
            return try ConnectionSettings(fromEnvironment)
        }
        return .environment
    }
}
