import ArgumentParser
import WardenPostgres
import WardenKit

/// `--database-url`: which database to use (else DATABASE_URL, else libpq's PG* environment).
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp(
            "The database, as a postgres:// URL or key=value string (default: DATABASE_URL, else PGHOST, PGUSER, ...; "
                + "with none of these in a project, test, lint and plan draft use a throwaway twin of it, as dev does).",
            valueName: "URL"))
    var databaseURL: String?

    /// The connection settings these options select.
    func settings() throws -> ConnectionSettings {
        try DatabaseTarget.settings(url: databaseURL)
    }

    /// A connection to the database these options select.
    func connect() throws -> Connection {
        try Connection(settings())
    }

    /// Starts opening the connection on another thread (see `ConnectionInBackground`);
    /// nil when the settings are wrong, so that `connect()` reports them in its turn.
    func connectInBackground() -> ConnectionInBackground? {
        (try? settings()).map(ConnectionInBackground.init)
    }
}

/// `--migrations DIR`: the folder of migration files, and `--project DIR`.
struct MigrationsOptions: ParsableArguments {
    @OptionGroup var project: ProjectOptions

    @Option(
        name: .customLong("migrations"),
        help: ArgumentHelp(
            "The folder of <version>_<name>.sql migration files (default: migrations, or supabase/migrations "
                + "in a Supabase project).",
            valueName: "DIR"),
        completion: .directory)
    var folder: String?

    /// The project's layout with --migrations applied (prints the layout line).
    func layout() throws -> ProjectLayout { try project.layout(migrations: folder, allGiven: folder != nil) }

    /// The layout's migrations folder, read and checked (before anything connects).
    func load() throws -> Migrations {
        try layout().project.migrations()
    }
}

/// `--lock-timeout SECONDS`: how long to wait for another run's migration lock.
struct LockOptions: ParsableArguments {
    @Option(
        name: .customLong("lock-timeout"),
        help: ArgumentHelp(
            "Seconds to wait while another pgwarden run migrates this database (0: wait forever); then exit 75.",
            valueName: "SECONDS"))
    var lockTimeoutSeconds = 60

    @Option(
        name: .customLong("ddl-lock-timeout"),
        help: ArgumentHelp(
            "Seconds a migration statement waits for a lock another session holds (lock_timeout), so readers "
                + "never queue behind it longer; then the migration is rolled back and retried.",
            valueName: "SECONDS"))
    var ddlLockTimeout = 5.0

    @Option(help: ArgumentHelp(
        "How many times a migration that timed out waiting for a lock is retried (pauses 0.5 s, 1 s, 2 s, then 4 s); "
            + "then it fails naming the blocking sessions (exit 75).",
        valueName: "N"))
    var retries = 3

    func validate() throws {
        guard (0...2_000_000).contains(lockTimeoutSeconds) else {
            throw ValidationError("--lock-timeout must be between 0 and 2000000 seconds")
        }
        guard ddlLockTimeout >= 0.001, ddlLockTimeout <= 86_400 else {
            throw ValidationError("--ddl-lock-timeout must be between 0.001 and 86400 seconds")
        }
        guard (0...100).contains(retries) else { throw ValidationError("--retries must be between 0 and 100") }
    }

    /// How long to wait for another run's migration lock (nil: no limit).
    var lockTimeout: Duration? { lockTimeoutSeconds == 0 ? nil : .seconds(lockTimeoutSeconds) }

    /// A run's options: these lock waits, and what the command's own flags ask.
    func runOptions(allowDrift: Bool = false, dryRun: Bool = false) -> MigrationRunOptions {
        MigrationRunOptions(
            allowDrift: allowDrift, dryRun: dryRun, lockTimeout: lockTimeout,
            ddlLockTimeout: .milliseconds(Int((ddlLockTimeout * 1000).rounded())), lockRetries: retries)
    }
}
