import Foundation
import WardenKit

/// A Supabase project folder holding only pgTAP files (`supabase/tests/<path>`), run by
/// the built `pgwarden test` against a fresh Electric Ride database.
public enum PgTAPFolder {
    /// Writes `files` (path under `supabase/tests` -> text) into a new folder, runs
    /// `pgwarden test --database-url ...` from it, and removes the folder.
    public static func test(_ files: [String: String]) throws -> PgwardenCLI.Output {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pgtap-folder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let tests = root.appendingPathComponent("supabase/tests")
        for (name, text) in files {
            let file = tests.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let connection = try ElectricRide.database()
        let cluster = try TestCluster.cluster
        let url = cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: cluster.projectUser)
        return try PgwardenCLI.run(["test", "--database-url", url], directory: root.path)
    }
}
