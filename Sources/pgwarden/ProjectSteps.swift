import Foundation
import WardenKit

/// The steps `dev` and `reset` run, each on the public API and each reported in one
/// line (`say`: standard output; migration progress goes to `progress`); the first
/// failure stops them.
struct ProjectSteps {
    let project: Project
    /// Where migrations, seeds and the plan run (on the twin: as `postgres`, as on Supabase).
    let settings: ConnectionSettings
    let progress: MigrationProgress
    /// Where each step's line goes (standard error for a command whose standard output
    /// is its own: `plan draft` on a twin).
    var say: (String) -> Void = { print($0) }

    /// Every input a run needs, read and checked.
    struct Inputs {
        /// The plan, or without one where the project's API looks, for the observation.
        let access: AccessCheck
        let migrations: Migrations
        let seeds: Seeds
    }

    /// Reads and checks every input a run needs (the plan, unless `withPlan` is false,
    /// else the project's API settings; the migrations; the seed files) without touching
    /// any database: a run that would refuse its input fails here, before a server is started.
    static func checkInputs(of project: Project, withPlan: Bool) throws -> Inputs {
        let access = try AccessCheck.read(planFile: project.planFile, hasPlan: withPlan, projectRoot: project.root)
        let migrations = try project.migrations()
        return Inputs(access: access, migrations: migrations, seeds: try project.checkedSeeds())
    }

    /// Bootstrap (as `bootstrapSettings`' role when given: on the twin, the superuser),
    /// apply the migrations, show the status summary, seed (`inputs`: the project's,
    /// read by `checkInputs`). Returns a connection as the project's role, for the plan
    /// and the tests. `roleExists`: the project's role is there before bootstrap (a twin from
    /// the template), so its session starts on another thread while bootstrap checks
    /// the twin.
    func provision(_ inputs: Inputs, bootstrapSettings: ConnectionSettings?, roleExists: Bool = false) throws -> Connection {
        let early = roleExists && bootstrapSettings != nil ? ConnectionInBackground(settings) : nil
        say(Self.describe(try SupabaseCompat.bootstrap(Connection(bootstrapSettings ?? settings))))
        // Otherwise (or when that session failed: bootstrap may just have made the role)
        // connect as the project's role only now: on the twin, bootstrap creates it. One
        // connection for all of it: a migration run leaves its connection as it found it.
        let connection = try (try? early?.connection()) ?? Connection(settings)
        if !project.exposesNewEntities {
            // As `supabase start` does for config.toml's [api] auto_expose_new_tables = false.
            try DataAPIDefaultPrivileges.revokeForNewEntities(on: connection)
            say("data API: new tables, sequences and functions in public are not granted to anon, authenticated "
                + "and service_role ([api] auto_expose_new_tables = false): each needs its own grant")
        }
        do {
            say(try inputs.migrations.up(on: connection, observer: progress.handle).summary)
        } catch let failure as MigrationSQLFailure {
            if let note = DataAPIExposureNote.afterMigration(failure, of: project) { Terminal.note(note) }
            throw failure
        }
        say(try inputs.migrations.status(on: connection).summary)
        try seed(inputs.seeds, on: connection)
        try makeBuckets(on: connection)
        return connection
    }

    /// Rolls every migration back, applies them all again, and seeds: a clean slate.
    /// The migrations and seeds are read and checked before anything is rolled back.
    func reset() throws {
        let migrations = try project.migrations()
        let seeds = try project.checkedSeeds()
        let migrating = try Connection(settings)
        say(try migrations.down(.all, on: migrating, observer: progress.handle).summary)
        say(try migrations.up(on: migrating, observer: progress.handle).summary)
        let seeding = try Connection(settings)
        try seed(seeds, on: seeding)
        try makeBuckets(on: seeding)
    }

    /// config.toml's storage buckets, after the seeds, as the Supabase CLI makes them.
    private func makeBuckets(on connection: Connection) throws {
        for line in try ConfigStorageBuckets.apply(project.storageBuckets, on: connection) {
            say("storage: \(line) ([storage.buckets] in config.toml)")
        }
    }

    private func seed(_ seeds: Seeds, on connection: Connection) throws {
        let source = seeds.source
        defer { progress.stop() }
        seeds.notes.forEach(progress.note)
        guard let files = try seeds.apply(on: connection, observer: progress.handle) else {
            switch source {
            case .folder(let folder): say("seed: no \(folder.relativePath) folder; skipped")
            case .files: say("seed: no seed file; skipped")
            case .disabled: say("seed: disabled in config.toml; skipped")
            }
            return
        }
        say("seed: applied \(files.count) file\(files.count == 1 ? "" : "s") from \(source.shown)")
    }

    /// One line saying what bootstrap did.
    static func describe(_ result: SupabaseCompat.BootstrapResult) -> String {
        switch result {
        case .alreadyPresent:
            return "bootstrap: the Supabase roles, schemas and objects are all present; nothing changed"
        case .installed(let created):
            return "bootstrap: created \(summary(of: created))"
        }
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
}
