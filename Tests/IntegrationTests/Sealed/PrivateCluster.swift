import Foundation
import WardenKit
import WardenPostgres

/// A server of the sealed tests' own: roles and role settings are cluster-wide, so a
/// digest that includes them must not see other suites' work in parallel.
enum PrivateCluster {
    nonisolated(unsafe) private static var clusterToStop: LocalCluster?

    static let shared: Result<LocalCluster, Error> = {
        let result = Result { try LocalCluster.start() }
        if case .success(let cluster) = result {
            clusterToStop = cluster
            atexit { PrivateCluster.clusterToStop?.stop() }
        }
        return result
    }()

    /// A fresh Electric Ride database on this server: the twin bootstrapped by the
    /// superuser, then migrations and seeds as `postgres`, who the returned connection is.
    static func electricRide() throws -> Connection {
        let cluster = try shared.get()
        let name = "sealed_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try SupabaseCompat.bootstrap(Connection(cluster.createDatabase(name)))
        let settings = cluster.settings(database: name, user: cluster.projectUser)
        let connection = try Connection(settings)
        _ = try Migrator.open(folder: ElectricRide.migrations.path, settings: settings).up()
        try Seeder(folder: ElectricRide.seeds).apply(connection)
        return connection
    }
}
