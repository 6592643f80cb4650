import ArgumentParser
import WardenKit

/// `pgwarden down`: roll back applied migrations.
struct DownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "down",
        abstract: "Roll back applied migrations, newest first (default: one).",
        discussion: """
            Runs each migration's `-- migrate:down` section and removes its history row, \
            in one transaction. Everything is planned first: if any migration in range has \
            no down section (an up-only file, or an empty down section) or no file, `down` \
            refuses and changes nothing.

            Exit status: 0 rolled back (or nothing to do); 1 a down section failed (that \
            migration stays applied); 3 a migration in range has no file, or one is marked \
            failed; 65 a migration in range cannot be rolled back, bad migration files, or \
            unknown --to version; 69 server unreachable; 75 lock timeout.
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var migrations: MigrationsOptions
    @OptionGroup var lock: LockOptions

    @Option(help: ArgumentHelp("Roll back this many migrations.", valueName: "N"))
    var steps: Int?

    @Option(help: ArgumentHelp(
        "Roll back every migration newer than this version (digits; it stays applied).", valueName: "VERSION"))
    var to: MigrationVersion?

    @Flag(help: "Roll back every applied migration.")
    var all = false

    @Flag(help: "List the migrations that would be rolled back; change nothing.")
    var dryRun = false

    func validate() throws {
        let chosen = [steps != nil, to != nil, all].filter { $0 }.count
        guard chosen <= 1 else { throw ValidationError("use only one of --steps, --to and --all") }
        if let steps, steps < 1 { throw ValidationError("--steps must be 1 or more") }
    }

    func target() throws -> DownTarget {
        if all { return .all }
        if let to { return .to(to) }
        return .steps(steps ?? 1)
    }

    func run() throws {
        let target = try target()
        try MigrationCommandRunner.run(database, migrations) { folder, connection, observer in
            try folder.down(target, on: connection, options: lock.runOptions(dryRun: dryRun), observer: observer)
        }
    }
}
