import Foundation

/// A folder of versioned migrations, read and checked once; it runs on any connection
/// you give it.
///
/// ```swift
/// let migrations = try Migrations(directory: projectURL.appending(path: "migrations"))
/// try migrations.up(on: connection)
/// ```
///
/// The connection must not be inside a transaction: each migration commits with its
/// history row. A run takes pgwarden's advisory lock on the database.
public struct Migrations: Sendable {
    /// The folder the files were read from.
    public let directory: URL
    let loaded: MigrationDirectory
    /// True for a Supabase CLI project: what runs is also recorded in
    /// `supabase_migrations.schema_migrations`.
    public let supabaseHistory: Bool

    /// Reads and validates every file (bad input throws `MigrationInputError`, before
    /// any database is touched). Versions the Supabase CLI recorded count as applied on
    /// any database; with `supabaseHistory`, every migration applied or rolled back is
    /// recorded there too, as the Supabase CLI records it. With `missingFolderIsEmpty`, a
    /// folder that does not exist holds no migrations (a Supabase CLI project's).
    public init(directory: URL, supabaseHistory: Bool = false, missingFolderIsEmpty: Bool = false) throws {
        self.directory = directory
        self.supabaseHistory = supabaseHistory
        let path = directory.relativePath  // as given: messages name it so
        if missingFolderIsEmpty && !FileManager.default.fileExists(atPath: directory.path) {
            loaded = MigrationDirectory(path: path, files: [])
        } else {
            loaded = try MigrationDirectory.load(path)
        }
    }

    /// How the folder orders its files (file names, or numbers for golang-migrate pairs).
    public var order: MigrationOrder { loaded.order }

    /// The migration files, in the order they apply.
    public var files: [MigrationFile] { loaded.files }

    /// Every version's state on this database (changes nothing).
    public func status(on connection: Connection) throws -> MigrationStatusReport {
        try running(on: connection) { try $0.status() }
    }

    /// Applies pending migrations in order, up to and including `target`.
    @discardableResult
    public func up(on connection: Connection, to target: MigrationVersion? = nil,
                   options: MigrationRunOptions = .init(),
                   observer: @escaping (MigrationEvent) -> Void = { _ in }) throws -> MigrationRun
    {
        try running(on: connection, options, observer) {
            try $0.up(to: target, allowDrift: options.allowDrift, dryRun: options.dryRun, lockTimeout: options.lockTimeout)
        }
    }

    /// Rolls migrations back, newest first (by default one). Everything in range is
    /// planned first: a migration without a down section or without a file refuses the
    /// whole run, before anything changes.
    @discardableResult
    public func down(_ target: DownTarget = .steps(1), on connection: Connection,
                     options: MigrationRunOptions = .init(),
                     observer: @escaping (MigrationEvent) -> Void = { _ in }) throws -> MigrationRun
    {
        try running(on: connection, options, observer) {
            try $0.down(target, dryRun: options.dryRun, lockTimeout: options.lockTimeout)
        }
    }

    /// Rolls the newest applied migration back and applies it again from its file (which
    /// may have changed since it was applied), under one lock. Nothing applied: an empty run.
    @discardableResult
    public func redo(on connection: Connection, options: MigrationRunOptions = .init(),
                     observer: @escaping (MigrationEvent) -> Void = { _ in }) throws -> MigrationRun
    {
        try running(on: connection, options, observer) {
            try $0.redo(allowDrift: options.allowDrift, dryRun: options.dryRun, lockTimeout: options.lockTimeout)
        }
    }

    /// Settles a migration marked failed (a `transaction:false` section that stopped
    /// part-way, or one that ended its own transaction), after someone checked the
    /// database. A version that is not marked failed is refused (`MigrationRefusal.notFailed`);
    /// one that is neither in the history nor in the folder is `MigrationInputError.unknownVersion`.
    public func resolve(_ version: MigrationVersion, as resolution: MigrationResolution, on connection: Connection,
                        lockTimeout: Duration? = .seconds(60)) throws
    {
        _ = try running(on: connection) { try $0.resolve(version, as: resolution, lockTimeout: lockTimeout) }
    }

    /// Runs `body` with a migrator on `connection`; the server's warnings during the run
    /// go to `observer` as `.warning` events (naming the running migration's file), and
    /// to the connection's own notice handler, which is put back afterwards.
    private func running<T>(on connection: Connection, _ options: MigrationRunOptions = .init(),
                            _ observer: @escaping (MigrationEvent) -> Void = { _ in },
                            _ body: (Migrator) throws -> T) throws -> T
    {
        guard connection.transactionStatus == .idle else {
            throw APIMisuse("migrations commit one by one: run them on a connection outside a transaction")
        }
        let migrator = Migrator(directory: loaded, connection: connection, supabaseHistory: supabaseHistory)
        migrator.observer = observer
        migrator.ddlLockTimeout = options.ddlLockTimeout
        migrator.lockRetries = options.lockRetries
        let previous = connection.noticeHandler
        connection.onNotice { [weak migrator] notice in
            migrator?.serverNotice(notice)
            previous(notice)
        }
        defer { connection.onNotice(previous) }
        return try body(migrator)
    }
}

/// How to settle a migration marked failed (`Migrations.resolve`).
public enum MigrationResolution: Sendable {
    /// Its changes are complete: mark it applied (with its file's current checksum).
    case applied
    /// Its changes were undone: forget it, so `up` runs it again.
    case rolledBack
}

/// How a migration run behaves.
public struct MigrationRunOptions: Sendable {
    /// Apply pending migrations even while applied ones changed or disappeared.
    public var allowDrift: Bool
    /// Plan and report only; change nothing.
    public var dryRun: Bool
    /// How long to wait for another run's lock (nil waits forever).
    public var lockTimeout: Duration?
    /// How long a migration statement waits for a lock another session holds
    /// (`lock_timeout`) before the migration is rolled back and retried.
    public var ddlLockTimeout: Duration
    /// How many times a migration that gave up waiting for a lock is run again.
    public var lockRetries: Int

    /// The defaults are `pgwarden up`'s: wait a minute for another run's lock, 5 s for a
    /// statement's lock, three retries.
    public init(allowDrift: Bool = false, dryRun: Bool = false, lockTimeout: Duration? = .seconds(60),
                ddlLockTimeout: Duration = .seconds(5), lockRetries: Int = 3)
    {
        self.allowDrift = allowDrift
        self.dryRun = dryRun
        self.lockTimeout = lockTimeout
        self.ddlLockTimeout = ddlLockTimeout
        self.lockRetries = lockRetries
    }
}
