import Foundation
import WardenKit

/// A server of the sealed-run tests' own, so the cluster-wide parts of their digests
/// (roles, memberships, role settings) are not moved by other suites running at once.
public enum PrivateCluster {
    public static let server = TestServer()

    /// A fresh Electric Ride database on this server: the twin bootstrapped by the
    /// superuser, then migrations and seeds as `postgres`, who the returned connection is.
    public static func electricRide() throws -> Connection {
        let settings = try server.newTwinDatabase("sealed").project
        let connection = try Connection(settings)
        _ = try Migrator.open(folder: ElectricRide.migrations.path, settings: settings).up()
        try Seeder(folder: ElectricRide.seeds).apply(connection)
        return connection
    }
}
