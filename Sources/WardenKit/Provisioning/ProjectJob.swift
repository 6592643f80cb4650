import Foundation
import WardenPostgres

/// Where a project keeps its files (paths relative to the working directory).
public struct ProjectPaths: Sendable {
    public var migrations: String
    public var seeds: String
    public var plan: String

    public init(migrations: String = "./migrations", seeds: String = "seeds", plan: String = "access-plan.yml") {
        self.migrations = migrations
        self.seeds = seeds
        self.plan = plan
    }
}

/// The multi-step jobs: `dev`'s whole run, and `reset`. Each step reports a line
/// through `log`; the first failure stops the job.
public struct ProjectJob {
    public let settings: ConnectionSettings
    public let paths: ProjectPaths
    public var log: (String) -> Void
    /// Receives migration progress events.
    public var onMigrationEvent: (MigrationEvent) -> Void = { _ in }

    public init(settings: ConnectionSettings, paths: ProjectPaths, log: @escaping (String) -> Void) {
        self.settings = settings
        self.paths = paths
        self.log = log
    }

    /// Bootstrap, migrate up, seed, then prove the access plan. Every input file (the
    /// migrations and the plan) is read and checked before the database is touched.
    public func provisionAndProve() throws -> AccessPlanReport {
        let plan = try AccessPlanParser.load(path: paths.plan)
        let migrator = try Migrator.open(folder: paths.migrations, settings: settings)
        let connection = try Connection(settings)
        log(Self.describe(try SupabaseCompat.bootstrap(connection)))
        migrator.observer = onMigrationEvent
        log(try migrator.up().summary)
        log(try migrator.status().summary)
        try seed(connection)
        return try AccessPlanRunner(connection: connection, plan: plan).run()
    }

    /// Rolls every migration back, applies them all again, and seeds: a clean slate.
    public func reset() throws {
        let migrator = try Migrator.open(folder: paths.migrations, settings: settings)
        migrator.observer = onMigrationEvent
        log(try migrator.down(.all).summary)
        log(try migrator.up().summary)
        try seed(try Connection(settings))
    }

    private func seed(_ connection: Connection) throws {
        let folder = URL(fileURLWithPath: paths.seeds)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            log("seed: no \(paths.seeds) folder; skipped")
            return
        }
        let files = try Seeder(folder: folder).apply(connection)
        log("seed: applied \(files.count) file\(files.count == 1 ? "" : "s") from \(paths.seeds)")
    }

    /// One line saying what bootstrap did.
    public static func describe(_ outcome: SupabaseCompat.Outcome) -> String {
        switch outcome {
        case .alreadyPresent:
            return "bootstrap: Supabase roles, auth.users and auth functions already present; nothing changed"
        case .installed(let created):
            return "bootstrap: created \(created.joined(separator: ", ")) and Supabase's default privileges"
        }
    }
}
