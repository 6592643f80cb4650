import ArgumentParser
import WardenKit

/// `pgwarden up`: apply pending migrations.
struct UpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Apply pending migrations in the folder's order (file names; numbers for golang-migrate pairs).",
        discussion: """
            Each migration runs in a transaction together with its history row \
            (pgwarden.schema_migrations): it is applied completely or not at all. Versions \
            the Supabase CLI recorded in supabase_migrations.schema_migrations count as \
            applied; in a Supabase CLI project, what `up` applies is recorded there too. A section \
            marked `-- migrate:up transaction:false` runs one statement at a time instead; \
            if it fails part-way, `status` shows it as failed until `pgwarden resolve`.

            A run takes this database's migration lock, so two runs never apply the same \
            migration; a second run waits (--lock-timeout) and then finds nothing to do.

            `up` refuses, changing nothing, while an applied migration's file was modified \
            or is missing (--allow-drift applies pending migrations anyway), and while a \
            migration is marked failed.

            Each statement waits at most --ddl-lock-timeout for a lock another session \
            holds; the migration is then rolled back and retried (--retries), and finally \
            fails naming the blocking sessions.

            Exit status: 0 applied (or nothing to do); 1 a migration failed (it was rolled \
            back; earlier ones stay applied); 3 drift or a failed migration; 65 bad \
            migration files or unknown --to version; 69 server unreachable; 75 lock timeout \
            (another run's lock, or a lock another session kept); 130, 143, 129 interrupted \
            by SIGINT, SIGTERM, SIGHUP (the running migration is rolled back).
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var migrations: MigrationsOptions
    @OptionGroup var lock: LockOptions

    @Option(help: ArgumentHelp(
        "Apply pending migrations up to and including this version (digits, e.g. 20261121000400).", valueName: "VERSION"))
    var to: MigrationVersion?

    @Flag(help: "List the migrations that would be applied; change nothing.")
    var dryRun = false

    @Flag(help: "Apply pending migrations even though applied ones were modified or are missing.")
    var allowDrift = false

    func run() throws {
        try MigrationCommandRunner.run(database, migrations) { folder, connection, observer in
            try folder.up(on: connection, to: to, options: lock.runOptions(allowDrift: allowDrift, dryRun: dryRun),
                          observer: observer)
        }
    }
}
