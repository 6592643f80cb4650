import Foundation
import WardenPostgres

/// The multi-step jobs: `dev`'s whole run, and `reset`. Each step reports a line
/// through `log`; the first failure stops the job.
package struct ProjectJob {
    /// Where migrations, seeds and the plan run (on the twin: as `postgres`, as on Supabase).
    package let settings: ConnectionSettings
    /// Where bootstrap runs, when it needs another role than `settings` (on the twin:
    /// the superuser `supabase_admin`); nil: `settings`.
    package var bootstrapSettings: ConnectionSettings?
    package let project: Project
    package var log: (String) -> Void
    /// Receives migration progress events.
    package var onMigrationEvent: (MigrationEvent) -> Void = { _ in }

    package init(settings: ConnectionSettings, project: Project, log: @escaping (String) -> Void) {
        self.settings = settings
        self.project = project
        self.log = log
    }

    /// Bootstrap, migrate up, seed, then prove the access plan. Every input file (the
    /// migrations and the plan) is read and checked before the database is touched.
    package func provisionAndProve() throws -> AccessPlanReport {
        let plan = try project.accessPlan()
        _ = try project.migrations()
        log(Self.describe(try SupabaseCompat.bootstrap(Connection(bootstrapSettings ?? settings))))
        // Connect as the project's role only now: on the twin, bootstrap creates it.
        let migrator = try Migrator.open(folder: project.migrationsDirectory.relativePath, settings: settings)
        let connection = try Connection(settings)
        migrator.observer = onMigrationEvent
        log(try migrator.up().summary)
        log(try migrator.status().summary)
        try seed(connection)
        if let line = StandInExtensions.reportLine(try StandInExtensions.installed(connection)) { log(line) }
        return try AccessPlanRunner(connection: connection, plan: plan).run()
    }

    /// Rolls every migration back, applies them all again, and seeds: a clean slate.
    package func reset() throws {
        let migrator = try Migrator.open(folder: project.migrationsDirectory.relativePath, settings: settings)
        migrator.observer = onMigrationEvent
        log(try migrator.down(.all).summary)
        log(try migrator.up().summary)
        try seed(try Connection(settings))
    }

    private func seed(_ connection: Connection) throws {
        let folder = project.seedsDirectory.relativePath
        guard let files = try project.applySeeds(on: connection) else {
            log("seed: no \(folder) folder; skipped")
            return
        }
        log("seed: applied \(files.count) file\(files.count == 1 ? "" : "s") from \(folder)")
    }

    /// `role anon`, `role postgres`, `table auth.users` -> "2 roles, 1 table"; a single
    /// piece is named ("table auth.users").
    static func summary(of created: [String]) -> String {
        if created.count == 1 { return created[0] }
        var order: [String] = []
        var counts: [String: Int] = [:]
        for item in created {
            let kind = String(item.prefix { $0 != " " })
            if counts[kind] == nil { order.append(kind) }
            counts[kind, default: 0] += 1
        }
        return order.map { "\(counts[$0] ?? 0) \($0)\(counts[$0] == 1 ? "" : "s")" }.joined(separator: ", ")
    }

    /// One line saying what bootstrap did.
    package static func describe(_ outcome: SupabaseCompat.Outcome) -> String {
        switch outcome {
        case .alreadyPresent:
            return "bootstrap: the Supabase roles, schemas and objects are all present; nothing changed"
        case .installed(let created):
            return "bootstrap: created \(summary(of: created))"
        }
    }
}
