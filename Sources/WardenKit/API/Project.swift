import Foundation

/// A pgwarden project folder: `migrations/`, `seeds/` and `access-plan.yml` (each
/// may be moved elsewhere).
///
/// ```swift
/// let project = Project(directory: root)
/// try project.provision(on: connection)          // bootstrap, up, seed
/// let report = try project.accessPlan().prove(on: connection)
/// ```
public struct Project: Sendable {
    public var migrationsDirectory: URL
    public var seedsDirectory: URL
    public var planFile: URL

    /// A project with the usual layout under `directory`.
    public init(directory: URL) {
        migrationsDirectory = directory.appendingPathComponent("migrations", isDirectory: true)
        seedsDirectory = directory.appendingPathComponent("seeds", isDirectory: true)
        planFile = directory.appendingPathComponent("access-plan.yml")
    }

    public init(migrations: URL, seeds: URL, plan: URL) {
        migrationsDirectory = migrations
        seedsDirectory = seeds
        planFile = plan
    }

    /// The migrations, read and checked.
    public func migrations() throws -> Migrations { try Migrations(directory: migrationsDirectory) }

    /// The access plan, read and checked.
    public func accessPlan() throws -> AccessPlan { try AccessPlan(contentsOf: planFile) }

    /// The seed files in the order they apply (empty when there is no seeds folder).
    public func seedFiles() throws -> [URL] {
        hasSeeds ? try Seeder(folder: seedsDirectory).files() : []
    }

    /// Applies the seed files in one transaction; nil when there is no seeds folder.
    package func applySeeds(on connection: Connection) throws -> [URL]? {
        hasSeeds ? try Seeder(folder: seedsDirectory).apply(connection) : nil
    }

    private var hasSeeds: Bool { FileManager.default.fileExists(atPath: seedsDirectory.path) }

    /// Makes the database ready: the Supabase twin where it is missing, every pending
    /// migration, then the seeds (in one transaction). Every file is read and checked
    /// before the database is touched.
    @discardableResult
    public func provision(on connection: Connection,
                          observer: @escaping (MigrationEvent) -> Void = { _ in }) throws -> ProvisionSummary
    {
        let migrations = try migrations()
        _ = try seedFiles()
        let bootstrap = try SupabaseCompat.bootstrap(connection)
        let run = try migrations.up(on: connection, observer: observer)
        let seeded = try applySeeds(on: connection) ?? []
        return ProvisionSummary(bootstrap: bootstrap, migrations: run, seedFiles: seeded)
    }
}

/// What `Project.provision` did.
public struct ProvisionSummary: Sendable {
    /// What the Supabase bootstrap found or created.
    public var bootstrap: SupabaseCompat.Outcome
    /// The migrations applied.
    public var migrations: MigrationRun
    /// The seed files applied, in order.
    public var seedFiles: [URL]
}
