import Foundation
import WardenPostgres
import WardenKit

/// The one ephemeral server of a test run, started on first use and stopped when the
/// test process exits. A test that cannot get it fails (the start error is rethrown).
enum TestCluster {
    nonisolated(unsafe) private static var clusterToStop: LocalCluster?

    static let shared: Result<LocalCluster, Error> = {
        let result = Result { try LocalCluster.start() }
        if case .success(let cluster) = result {
            clusterToStop = cluster
            atexit { TestCluster.clusterToStop?.stop() }
        }
        return result
    }()

    static var cluster: LocalCluster {
        get throws { try shared.get() }
    }

    /// A fresh, empty database for one test.
    static func newDatabase(_ label: String = "t") throws -> ConnectionSettings {
        let name = "\(label)_\(UUID().uuidString.prefix(8).lowercased())"
        return try cluster.createDatabase(name)
    }

    /// A fresh database made a Supabase twin (by the superuser), and settings that reach
    /// it as `postgres`, the non-superuser that migrations, seeds and plans run as.
    static func newTwinDatabase(_ label: String = "twin") throws -> (admin: ConnectionSettings, project: ConnectionSettings) {
        let admin = try newDatabase(label)
        _ = try SupabaseCompat.bootstrap(Connection(admin))
        let cluster = try cluster
        return (admin, cluster.settings(database: admin.parameters["dbname"] ?? "", user: cluster.projectUser))
    }

    /// Opens a connection to a fresh database.
    static func connect(onNotice: @escaping (PGNotice) -> Void = { _ in }) throws -> Connection {
        try Connection(newDatabase(), onNotice: onNotice)
    }
}
