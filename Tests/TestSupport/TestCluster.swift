import Foundation
import WardenKit

/// An ephemeral server shared by the tests of one process (`SharedLocalCluster`:
/// started on first use, stopped when the process exits). A test that cannot get it
/// fails: the start error is rethrown, never skipped.
public final class TestServer: Sendable {
    private let shared = SharedLocalCluster()

    public init() {}

    /// The running server (started now if needed).
    public var cluster: LocalCluster { get throws { try shared.cluster() } }

    /// A fresh, empty database, as the superuser.
    public func newDatabase(_ label: String = "t") throws -> ConnectionSettings {
        try cluster.createDatabase("\(label)_\(UUID().uuidString.prefix(8).lowercased())")
    }

    /// A fresh database made a Supabase twin: the superuser's settings (bootstrap ran
    /// as it) and the project owner's (`postgres`, what migrations and plans run as).
    public func newTwinDatabase(_ label: String = "twin") throws -> (admin: ConnectionSettings, project: ConnectionSettings) {
        let admin = try newDatabase(label)
        _ = try SupabaseCompat.bootstrap(Connection(admin))
        let cluster = try cluster
        return (admin, cluster.settings(database: admin.parameters["dbname"] ?? "", user: cluster.projectUser))
    }
}

/// The server most tests share.
public enum TestCluster {
    public static let server = TestServer()

    public static var cluster: LocalCluster { get throws { try server.cluster } }

    /// A fresh, empty database for one test, as the superuser.
    public static func newDatabase(_ label: String = "t") throws -> ConnectionSettings {
        try server.newDatabase(label)
    }

    /// A fresh twin database: the superuser's and the project owner's settings.
    public static func newTwinDatabase(_ label: String = "twin") throws -> (admin: ConnectionSettings, project: ConnectionSettings) {
        try server.newTwinDatabase(label)
    }

    /// Opens a connection to a fresh database.
    public static func connect(onNotice: @escaping (PGNotice) -> Void = { _ in }) throws -> Connection {
        try Connection(newDatabase(), onNotice: onNotice)
    }
}
