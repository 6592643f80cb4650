import Foundation

/// A throwaway database on a local Supabase twin, for tests: the first one starts an
/// ephemeral PostgreSQL server (data in a temporary directory, Unix socket only) that
/// lives until the process exits; each scratch database gets a unique name, the
/// Supabase roles and schemas, and is dropped by `drop()` or when the value is freed.
///
/// ```swift
/// let database = try ScratchDatabase()
/// let connection = try database.connect()
/// ```
public final class ScratchDatabase: @unchecked Sendable {
    /// The database's unique name.
    public let name: String
    /// How to connect as the project owner, `postgres`, a non-superuser as on
    /// Supabase (what migrations, seeds and the plan run as).
    public let settings: ConnectionSettings
    /// How to connect as the superuser, `supabase_admin` (for what only it may do).
    public let adminSettings: ConnectionSettings
    private let cluster: LocalCluster
    private var dropped = false

    /// Starts the shared local server if needed, creates a database and bootstraps it.
    public init(label: String = "scratch") throws {
        cluster = try SharedLocalCluster.scratch.cluster()
        let safeLabel = String(label.lowercased().unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }.prefix(20))
        name = "\(safeLabel.isEmpty ? "scratch" : safeLabel)_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
        adminSettings = try cluster.createDatabase(name)
        try SupabaseCompat.bootstrap(Connection(adminSettings))
        settings = cluster.settings(database: name, user: cluster.projectUser)
    }

    deinit { try? drop() }

    /// Opens a new connection to the database as the project owner (`postgres`).
    public func connect() throws -> Connection { try Connection(settings) }

    /// Drops the database now (the server keeps running for other scratch databases).
    public func drop() throws {
        guard !dropped else { return }
        dropped = true
        let admin = try Connection(cluster.settings())
        try admin.query("drop database if exists \(identifier: name) with (force)")
    }
}
