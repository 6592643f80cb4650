import ArgumentParser
import WardenKit

/// `pgwarden redo`: roll back the newest migration and apply it again.
struct RedoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Roll back the newest applied migration and apply it again from its file.",
        discussion: """
            The usual way to iterate on the migration you are writing: its file may have \
            changed since it was applied. Both steps run under one migration lock.

            Exit status: 0 done (or nothing applied); 1 a section failed; 3 drift in other \
            migrations or a failed migration; 65 the migration cannot be rolled back or bad \
            migration files; 69 server unreachable; 75 lock timeout.
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var migrations: MigrationsOptions
    @OptionGroup var lock: LockOptions

    @Flag(help: "Show what would run; change nothing.")
    var dryRun = false

    @Flag(help: "Redo even though other applied migrations were modified or are missing.")
    var allowDrift = false

    func run() throws {
        try MigrationCommandRunner.run(database, migrations) { folder, connection, observer in
            try folder.redo(on: connection, options: lock.runOptions(allowDrift: allowDrift, dryRun: dryRun),
                            observer: observer)
        }
    }
}
