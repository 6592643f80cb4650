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

    /// A fresh Electric Ride database (compat layer, migrations, seeds) on this server.
    static func electricRide() throws -> Connection {
        let cluster = try shared.get()
        let settings = try cluster.createDatabase("sealed_\(UUID().uuidString.prefix(8).lowercased())")
        let connection = try Connection(settings)
        _ = try SupabaseCompat.bootstrap(connection)
        _ = try Migrator.open(folder: ElectricRide.migrations.path, settings: settings).up()
        try Seeder(folder: ElectricRide.seeds).apply(connection)
        return connection
    }
}
