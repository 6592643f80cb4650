import Foundation
import WardenPostgres
import WardenKit

/// A temporary migrations folder written by a test; removed when released.
public final class MigrationFolder {
    public let path: String

    public init(_ files: [String: String] = [:]) throws {
        path = NSTemporaryDirectory() + "pgwarden-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try write(name, text) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
    }

    public func write(_ name: String, bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
    }

    public func remove(_ name: String) throws {
        try FileManager.default.removeItem(atPath: "\(path)/\(name)")
    }

    /// A migrator for this folder on a database.
    package func migrator(_ database: TestDatabase) throws -> Migrator {
        try Migrator.open(folder: path, settings: database.settings)
    }
}

/// A fresh database of the test cluster, with a connection for checking it.
public struct TestDatabase {
    public let settings: ConnectionSettings
    public let name: String
    public let connection: Connection

    public init(_ label: String = "m") throws {
        settings = try TestCluster.newDatabase(label)
        name = settings.parameters["dbname"] ?? ""
        connection = try Connection(settings)
    }

    /// The URL the CLI gets with --database-url.
    public var url: String {
        get throws { try TestCluster.cluster.url(database: name) }
    }

    /// A single value (nil for NULL or no row).
    public func scalar(_ sql: SQL) throws -> String? {
        try connection.query(sql).scalar
    }

    /// The history's versions in version order, or nil when the table does not exist.
    public func historyVersions() throws -> [String]? {
        guard try scalar("select to_regclass('pgwarden.schema_migrations') is not null") == "t" else { return nil }
        return try connection.query("select version from pgwarden.schema_migrations order by version::numeric")
            .rows.map { $0[0] ?? "" }
    }

    /// Whether a table, view or index exists (by name, any schema on the search path).
    public func exists(_ relation: String) throws -> Bool {
        try scalar("select to_regclass(\(relation)) is not null") == "t"
    }

    /// The state column of one history row.
    public func state(_ version: String) throws -> String? {
        try connection.query("select state from pgwarden.schema_migrations where version = \(version)").scalar
    }
}
