import Foundation

/// Where a project keeps its files, found from its root folder.
///
/// A folder that holds `supabase/config.toml` or `supabase/migrations` is a Supabase CLI
/// project: migrations in `supabase/migrations`, the seed files of config.toml's
/// `[db.seed]` (default `supabase/seed.sql`), tests in `supabase/tests`, and the access
/// plan at `supabase/access-plan.yml` (or `access-plan.yml` at the root). Any other
/// folder has pgwarden's own layout: `migrations/`, `seeds/`, `tests/`, `access-plan.yml`.
///
/// ```swift
/// let layout = try ProjectLayout.discover(in: URL(fileURLWithPath: "."))
/// let project = layout.overriding(migrations: "db/migrations").project
/// ```
public struct ProjectLayout: Sendable {
    public enum Kind: String, Sendable {
        /// `migrations/`, `seeds/`, `access-plan.yml`.
        case pgwarden
        /// A Supabase CLI project (`supabase/`).
        case supabase
    }

    public let kind: Kind
    /// The project's root folder, as given.
    public let root: URL
    public var migrationsDirectory: URL
    public var seeds: SeedSource
    /// pgTAP suites (`supabase/tests` or `tests`); it may not exist.
    public var testsDirectory: URL
    /// The access plan; it may not exist.
    public var planFile: URL
    /// config.toml's settings; nil for pgwarden's layout or a Supabase project without config.toml.
    public let supabaseConfig: SupabaseConfig?
    /// Facts worth a line: `[db.seed]` patterns that match no file, and the like.
    public var notes: [String] = []
    /// The migrations folder is the layout's own, not one a flag named.
    var migrationsFromLayout = true

    /// Finds the layout of the project at `root`. Reads `supabase/config.toml` when
    /// present: a malformed one throws `ProjectLayoutError` (nothing else is read).
    public static func discover(in root: URL = URL(fileURLWithPath: ".")) throws -> ProjectLayout {
        let base = root.relativePath
        let supabase = join(base, "supabase")
        let configPath = join(supabase, "config.toml")
        let manager = FileManager.default
        guard manager.fileExists(atPath: configPath) || manager.fileExists(atPath: join(supabase, "migrations")) else {
            return ProjectLayout(
                // `./migrations` as pgwarden has always named it in messages.
                kind: .pgwarden, root: root, migrationsDirectory: url(base == "." ? "./migrations" : join(base, "migrations")),
                seeds: .folder(url(join(base, "seeds"))), testsDirectory: url(join(base, "tests")),
                planFile: url(join(base, "access-plan.yml")), supabaseConfig: nil)
        }
        let config = manager.fileExists(atPath: configPath) ? try SupabaseConfig.load(url(configPath), shownAs: configPath) : nil
        let seed = config?.seed ?? SupabaseConfig.Seed()
        var layout = ProjectLayout(
            kind: .supabase, root: root, migrationsDirectory: url(join(supabase, "migrations")),
            seeds: .disabled, testsDirectory: url(join(supabase, "tests")),
            planFile: url(planPath(base: base, supabase: supabase)), supabaseConfig: config)
        if seed.enabled {
            let expanded = try SeedPathPatterns.expand(seed.sqlPaths, in: supabase, config: configPath)
            layout.seeds = .files(expanded.files)
            layout.notes += expanded.unmatched.map { "[db.seed] \($0): no file matches; skipped" }
        }
        return layout
    }

    /// `supabase/access-plan.yml` when it exists, else `access-plan.yml` at the root
    /// when that exists, else `supabase/access-plan.yml`.
    static func planPath(base: String, supabase: String) -> String {
        let inSupabase = join(supabase, "access-plan.yml")
        let atRoot = join(base, "access-plan.yml")
        if FileManager.default.fileExists(atPath: inSupabase) { return inSupabase }
        return FileManager.default.fileExists(atPath: atRoot) ? atRoot : inSupabase
    }

    /// This layout with the paths a user named explicitly (command-line flags win).
    public func overriding(migrations: String? = nil, seeds: String? = nil, plan: String? = nil,
                           tests: String? = nil) -> ProjectLayout
    {
        var layout = self
        if let migrations {
            layout.migrationsDirectory = Self.url(migrations)
            layout.migrationsFromLayout = false
        }
        if let seeds {
            layout.seeds = .folder(Self.url(seeds))
            layout.notes.removeAll { $0.hasPrefix("[db.seed]") }
        }
        if let plan { layout.planFile = Self.url(plan) }
        if let tests { layout.testsDirectory = Self.url(tests) }
        return layout
    }

    /// The project these paths make.
    public var project: Project {
        var project = Project(migrations: migrationsDirectory, seeds: seeds, plan: planFile, supabaseHistory: kind == .supabase)
        project.exposesNewEntities = supabaseConfig?.autoExposeNewTables ?? true
        if kind == .supabase, supabaseConfig?.autoExposeNewTables == nil {
            project.configLeavingExposureUnset = Self.join(root.relativePath, "supabase/config.toml")
        }
        project.storageBuckets = supabaseConfig?.storageBuckets ?? []
        project.missingMigrationsFolderIsEmpty = kind == .supabase && migrationsFromLayout
        project.root = root
        return project
    }

    /// One line naming the layout and its folders, e.g.
    /// `layout: Supabase CLI project (migrations supabase/migrations, seeds supabase/seed.sql, ...)`.
    public var summary: String {
        let name = kind == .supabase ? "Supabase CLI project" : "pgwarden project"
        let manager = FileManager.default
        let tests = manager.fileExists(atPath: testsDirectory.path) ? "tests \(testsDirectory.relativePath)" : "no tests folder"
        let plan = manager.fileExists(atPath: planFile.path) ? "plan \(planFile.relativePath)" : "no plan yet (\(planFile.relativePath))"
        let folder = migrationsDirectory.relativePath
        let migrations = manager.fileExists(atPath: migrationsDirectory.path) || !migrationsFromLayout || kind != .supabase
            ? "migrations \(folder)" : "no migrations folder (\(folder))"
        return "layout: \(name) (\(migrations), seeds \(seeds.shown), \(tests), \(plan))"
    }

    static func join(_ base: String, _ component: String) -> String {
        if base.isEmpty || base == "." { return component }
        return base.hasSuffix("/") ? base + component : base + "/" + component
    }

    static func url(_ path: String) -> URL { URL(fileURLWithPath: path) }
}
