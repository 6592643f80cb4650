import Foundation
import WardenPostgres
import WardenKit

/// Electric Ride's files in this repository, and scratch databases built from them.
public enum ElectricRide {
    public static var root: URL { PackagePaths.root }
    public static var migrations: URL { root.appendingPathComponent("migrations") }
    public static var seeds: URL { root.appendingPathComponent("seeds") }
    public static var planPath: String { root.appendingPathComponent("access-plan.yml").path }

    /// A fresh Supabase twin with every migration (from `migrations`, default the real
    /// ones) and the seeds, applied as `postgres` (not a superuser), as on Supabase.
    /// The connection is `postgres`'s.
    public static func database(migrations: URL = migrations, seeded: Bool = true) throws -> Connection {
        let settings = try TestCluster.newTwinDatabase("er").project
        let connection = try Connection(settings)
        _ = try Migrator.open(folder: migrations.path, settings: settings).up()
        if seeded { try Seeder(folder: seeds).apply(connection) }
        return connection
    }

    /// A copy of the migrations folder with `replacement` applied to one file's text.
    public static func brokenCopy(file: String, replacing target: String, with replacement: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("er-broken-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: migrations, to: folder)
        let path = try required(FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.contains(file) })
        let url = folder.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard text.contains(target) else { throw BrokenCopyError(message: "\(path) does not contain \(target)") }
        try text.replacingOccurrences(of: target, with: replacement).write(to: url, atomically: true, encoding: .utf8)
        return folder
    }

    public struct BrokenCopyError: Error { var message: String }
}

private func required<T>(_ value: T?) throws -> T {
    guard let value else { throw ElectricRide.BrokenCopyError(message: "missing") }
    return value
}
