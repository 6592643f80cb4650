import Foundation
import WardenKit

/// A throwaway local twin of a project, as `dev` runs one: a server started from the
/// cached, bootstrapped template, made a twin of Supabase, the project's migrations
/// and seeds applied as `postgres`. The server is stopped and its data deleted when
/// the work is done, whatever ended it (Ctrl-C included).
///
/// `dev` runs on one; `plan draft` and `lint` run on one when no database is given
/// at all (`DatabaseTarget.nothingGiven`): the hint `dev` prints, `pgwarden plan draft
/// --output ...`, then works from a project's root on a new machine.
struct ProjectTwin {
    /// The server, started and ready (not yet bootstrapped when `origin` says so).
    let cluster: LocalCluster
    /// Every input of the run, read and checked before the server started.
    let inputs: ProjectSteps.Inputs
    /// The steps that provision it, as `postgres` (as on Supabase).
    let steps: ProjectSteps

    /// Where the project's migrations and seeds run, and where the work runs.
    var projectSettings: ConnectionSettings { cluster.settings(user: cluster.projectUser) }

    /// Bootstraps the twin, applies the migrations and seeds, and returns a connection as
    /// `postgres`. `roleExists`: the template had the project's role, so its session may
    /// start while bootstrap checks the twin (see `ProjectSteps.provision`).
    func provision() throws -> Connection {
        try steps.provision(inputs, bootstrapSettings: cluster.settings(), roleExists: cluster.origin.isBootstrapped)
    }

    /// Starts a twin for `layout`, runs `work` on it, then stops it and deletes its data.
    /// Every input (migrations, seeds, the plan when `withPlan`) is read and checked on
    /// another thread while the server's private installation is made, and nothing goes
    /// further until they have passed: a run that will refuse its input starts nothing.
    /// What the run reports (the server, bootstrap, migrations, seeds) goes to `say`,
    /// and migration progress to `progress`.
    static func run<T>(
        _ layout: ProjectLayout, withPlan: Bool, noCache: Bool, progress: MigrationProgress,
        say: @escaping (String) -> Void, _ work: (ProjectTwin) throws -> T
    ) throws -> T {
        // Signals are handled from the first moment; whatever happens, the server's
        // watchdog removes what is left when this process ends.
        InterruptHandler.shared.install()
        let checking = InBackground(named: "pgwarden inputs") {
            try ProjectSteps.checkInputs(of: layout.project, withPlan: withPlan)
        }
        let cluster: LocalCluster
        do {
            cluster = try LocalCluster.start(cache: noCache ? nil : ClusterTemplateCache.user()) {
                _ = try checking.value()
            }
        } catch {
            // Wrong input is reported first, as when it was checked before the start.
            _ = try checking.value()
            throw error
        }
        let token = InterruptHandler.shared.onInterrupt { cluster.stop() }
        defer {
            InterruptHandler.shared.remove(token)
            cluster.stop()
        }
        let inputs = try checking.value()
        let version = try cluster.serverVersion ?? ServerInfo.version(of: cluster.settings())
        say("server: PostgreSQL \(version), ready in \(cluster.startupDuration.wholeMilliseconds) ms")
        if let line = cluster.origin.line { say(line) }
        if let note = majorVersionNote(wanted: layout.supabaseConfig?.majorVersion, running: version) {
            Terminal.note(note)
        }
        if layout.supabaseConfig?.apiEnabled == false { Terminal.note(dataAPIOffNote) }
        var steps = ProjectSteps(project: layout.project, settings: cluster.settings(user: cluster.projectUser), progress: progress)
        steps.say = say
        return try work(ProjectTwin(cluster: cluster, inputs: inputs, steps: steps))
    }

    /// The project a command given no database at all (`plan draft`, `lint`) runs on a
    /// twin of: `layout()`, when no database is named (`DatabaseTarget.nothingGiven`) and
    /// its migrations folder exists; nil otherwise (the command connects as it always
    /// did, and `layout` is not called). When there is one, says so on standard error.
    static func standIn(databaseURL: String?, layout: () throws -> ProjectLayout) throws -> ProjectLayout? {
        guard DatabaseTarget.nothingGiven(url: databaseURL) else { return nil }
        let layout = try layout()
        guard isFolder(layout.migrationsDirectory) else { return nil }
        Terminal.note("database: none given (--database-url, DATABASE_URL, PGHOST, ...); using a throwaway local twin "
            + "of this project, with its migrations and seeds applied as `pgwarden dev` applies them (nothing is kept)")
        return layout
    }

    /// Whether `url` is an existing folder.
    static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Said when `supabase/config.toml` turns the Data API off (`[api] enabled = false`):
    /// what the personas may do is then what a client meets once it is turned on, or
    /// connecting as those roles some other way (a project signing in through another
    /// provider, with its own server, said nothing of it; round thirty-six).
    static let dataAPIOffNote = "note: supabase/config.toml's [api] enabled is false: the Data API is off, so no request "
        + "reaches these tables through it; what anon and signed-in users may do here is what they would meet with it on, "
        + "or through any other way of acting as those roles"

    /// A warning when `supabase/config.toml`'s `[db] major_version` is not the major
    /// version of the server this run started (`running`: `15.18 (Debian ...)`).
    static func majorVersionNote(wanted: Int?, running: String) -> String? {
        guard let wanted, let major = Int(running.prefix { $0.isNumber }), major != wanted else { return nil }
        return "note: supabase/config.toml's [db] major_version is \(wanted), but this run's server is PostgreSQL \(running), "
            + "the newest on this machine: what differs between the two versions may behave differently here "
            + "(install PostgreSQL \(wanted)'s server, or set PGWARDEN_PG_BINDIR to its bin folder)"
    }
}
