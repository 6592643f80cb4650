import Foundation

/// A pgwarden project: its migrations folder, seed files and access plan (each may be
/// moved elsewhere). `ProjectLayout.discover(in:)` finds them in a project folder,
/// Supabase CLI projects included.
///
/// ```swift
/// let project = try ProjectLayout.discover(in: root).project
/// try project.provision(on: connection)          // bootstrap, up, seed
/// let report = try project.accessPlan().prove(on: connection)
/// ```
public struct Project: Sendable {
    public var migrationsDirectory: URL
    /// The seed files: a folder of `*.sql`, or a list (a Supabase project's `[db.seed]`).
    public var seeds: SeedSource
    public var planFile: URL
    /// True for a Supabase CLI project: migrations are also recorded in
    /// `supabase_migrations.schema_migrations`, as the Supabase CLI records them.
    public var supabaseHistory: Bool
    /// Whether new tables, sequences and functions in `public` are granted to the Data
    /// API roles by default, as on a Supabase project made before 2026-05-30; false
    /// when config.toml says `[api] auto_expose_new_tables = false`
    /// (`DataAPIDefaultPrivileges`, applied by `pgwarden dev`).
    public var exposesNewEntities = true
    /// The config.toml that leaves `[api] auto_expose_new_tables` unset, project-relative
    /// (`supabase/config.toml`); nil when it sets the key, or for a project of another kind
    /// (`DataAPIExposureNote`).
    public var configLeavingExposureUnset: String?
    /// A migrations folder that does not exist holds no migrations, as the Supabase CLI
    /// reads its `supabase/migrations` (`ListLocalMigrations` ignores a missing folder);
    /// set for a Supabase CLI project's own folder. Otherwise a missing folder is an error.
    public var missingMigrationsFolderIsEmpty = false
    /// The storage buckets config.toml declares (`[storage.buckets.<name>]`), made after
    /// the seeds as `supabase start` and `supabase db reset` make them (`ConfigStorageBuckets`).
    public var storageBuckets: [SupabaseConfig.StorageBucket] = []
    /// The project's root folder, whose `supabase/config.toml` a plan kept elsewhere
    /// reads (its access token hook, `[api]`); nil: only the one beside the plan.
    public var root: URL?

    /// A project with pgwarden's own layout under `directory` (`migrations/`, `seeds/`,
    /// `access-plan.yml`); `ProjectLayout.discover(in:)` also finds Supabase projects.
    public init(directory: URL) {
        migrationsDirectory = directory.appendingPathComponent("migrations", isDirectory: true)
        seeds = .folder(directory.appendingPathComponent("seeds", isDirectory: true))
        planFile = directory.appendingPathComponent("access-plan.yml")
        supabaseHistory = false
    }

    /// A project from a migrations folder, a seeds folder and a plan file.
    public init(migrations: URL, seeds: URL, plan: URL) {
        self.init(migrations: migrations, seeds: .folder(seeds), plan: plan)
    }

    public init(migrations: URL, seeds: SeedSource, plan: URL, supabaseHistory: Bool = false) {
        migrationsDirectory = migrations
        self.seeds = seeds
        planFile = plan
        self.supabaseHistory = supabaseHistory
    }

    /// The migrations, read and checked.
    public func migrations() throws -> Migrations {
        try Migrations(directory: migrationsDirectory, supabaseHistory: supabaseHistory,
                       missingFolderIsEmpty: missingMigrationsFolderIsEmpty)
    }

    /// The access plan, read and checked.
    public func accessPlan() throws -> AccessPlan { try AccessPlan(contentsOf: planFile, projectRoot: root) }

    /// The seed files, read and checked: a file that would end the seed transaction,
    /// touch savepoints or change the role is an error naming its line. `apply(on:)`
    /// runs what was read here.
    public func checkedSeeds() throws -> Seeds { try Seeds(seeds) }

    /// The seed files in the order they apply (empty when there are none), each read
    /// and checked as `seed(on:)` checks it.
    public func seedFiles() throws -> [URL] { try checkedSeeds().files }

    /// Applies the seed files in one transaction; returns them, or nil when there are
    /// none (no seeds folder, no file, or seeding disabled in `config.toml`).
    @discardableResult
    public func seed(on connection: Connection) throws -> [URL]? { try checkedSeeds().apply(on: connection) }

    /// Makes the database ready: the Supabase twin where it is missing, every pending
    /// migration, then the seeds (in one transaction), then config.toml's storage buckets. Every file is read and checked
    /// before the database is touched.
    @discardableResult
    public func provision(on connection: Connection,
                          observer: @escaping (MigrationEvent) -> Void = { _ in }) throws -> ProvisionSummary
    {
        let migrations = try migrations()
        let seeds = try checkedSeeds()
        let bootstrap = try SupabaseCompat.bootstrap(connection)
        let run = try migrations.up(on: connection, observer: observer)
        let seeded = try seeds.apply(on: connection) ?? []
        try ConfigStorageBuckets.apply(storageBuckets, on: connection)
        return ProvisionSummary(bootstrap: bootstrap, migrations: run, seedFiles: seeded)
    }
}

/// What `Project.provision` did.
public struct ProvisionSummary: Sendable {
    /// What the Supabase bootstrap found or created.
    public var bootstrap: SupabaseCompat.BootstrapResult
    /// The migrations applied.
    public var migrations: MigrationRun
    /// The seed files applied, in order.
    public var seedFiles: [URL]
}
