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
    /// migrations, the seed files and the plan) is read and checked before the database
    /// is touched.
    package func provisionAndProve() throws -> AccessPlanReport {
        let plan = try project.accessPlan()
        let connection = try provision()
        return try AccessPlanRunner(connection: connection, plan: plan).run()
    }

    /// Bootstrap, migrate up and seed (the migrations and seed files read and checked
    /// first); returns a connection as the project's role (`settings`), for the plan
    /// and the tests.
    package func provision() throws -> Connection {
        _ = try project.migrations()
        _ = try project.seedFiles()
        log(Self.describe(try SupabaseCompat.bootstrap(Connection(bootstrapSettings ?? settings))))
        // Connect as the project's role only now: on the twin, bootstrap creates it.
        let migrator = try Migrator.open(project: project, settings: settings)
        let connection = try Connection(settings)
        migrator.observer = onMigrationEvent
        log(try migrator.up().summary)
        log(try migrator.status().summary)
        try seed(connection)
        return connection
    }

    /// Rolls every migration back, applies them all again, and seeds: a clean slate.
    package func reset() throws {
        let migrator = try Migrator.open(project: project, settings: settings)
        migrator.observer = onMigrationEvent
        log(try migrator.down(.all).summary)
        log(try migrator.up().summary)
        try seed(try Connection(settings))
    }

    /// Reads and checks every input `provisionAndProve` needs (the plan, unless
    /// `withPlan` is false; the migrations, the seed files) without touching any
    /// database: a run that would refuse its input fails here, before a server is started.
    @discardableResult
    package static func checkInputs(of project: Project, withPlan: Bool = true) throws -> AccessPlan? {
        let plan = withPlan ? try project.accessPlan() : nil
        _ = try project.migrations()
        _ = try project.seedFiles()
        return plan
    }

    private func seed(_ connection: Connection) throws {
        let source = project.seeds
        guard let files = try project.applySeeds(on: connection) else {
            switch source {
            case .folder(let folder): log("seed: no \(folder.relativePath) folder; skipped")
            case .files: log("seed: no seed file; skipped")
            case .disabled: log("seed: disabled in config.toml; skipped")
            }
            return
        }
        log("seed: applied \(files.count) file\(files.count == 1 ? "" : "s") from \(source.shown)")
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
    package static func describe(_ outcome: SupabaseCompat.BootstrapResult) -> String {
        switch outcome {
        case .alreadyPresent:
            return "bootstrap: the Supabase roles, schemas and objects are all present; nothing changed"
        case .installed(let created):
            return "bootstrap: created \(summary(of: created))"
        }
    }
}
