import Foundation
import WardenKit
import TestSupport

/// One of the example projects under `examples/`, and scratch databases built from it.
struct ExampleProject {
    let name: String

    var root: URL { PackagePaths.root.appendingPathComponent("examples").appendingPathComponent(name) }
    var migrations: URL { root.appendingPathComponent("migrations") }
    var seeds: URL { root.appendingPathComponent("seeds") }
    var planPath: String { root.appendingPathComponent("access-plan.yml").path }

    /// A fresh database with the compat layer, the migrations up to `version` (all
    /// when nil), and the seeds.
    func database(upTo version: String? = nil) throws -> Connection {
        let settings = try TestCluster.newDatabase(name)
        let connection = try Connection(settings)
        _ = try SupabaseCompat.bootstrap(connection)
        _ = try Migrator.open(folder: migrations.path, settings: settings).up(to: version.flatMap(MigrationVersion.init))
        _ = try Seeder(folder: seeds).apply(connection)
        return connection
    }

    /// Runs the example's own plan.
    func prove(on connection: Connection) throws -> AccessPlanReport {
        try AccessPlanRunner(connection: connection, plan: AccessPlanParser.load(path: planPath)).run()
    }
}

extension AccessPlanReport {
    /// `persona · subject · probe` of every failing result, for exact comparisons.
    var failingCells: Set<String> {
        Set(failures.map { [$0.persona ?? "-", $0.subject, $0.probe].joined(separator: " · ") })
    }
}
