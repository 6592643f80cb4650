import WardenPostgres

/// One row of the migration history.
public struct MigrationRecord: Equatable, Sendable {
    /// `applied`: the migration is in effect. `failed`: a `transaction:false` section
    /// (or one that ended its own transaction) did not finish, or is running right
    /// now; what it changed is unknown until someone checks and runs `pgwarden resolve`.
    public enum State: String, Sendable {
        case applied, failed
    }

    /// The version as written in the file name when it was applied.
    public var version: String
    public var name: String
    /// SHA-256 of the up section that was applied.
    public var checksum: String
    /// When it was applied, ISO 8601 in UTC (set by the database).
    public var appliedAt: String?
    /// Who applied it (`current_user`, set by the database).
    public var appliedBy: String?
    /// How long its section took to run, in milliseconds.
    public var durationMs: Int
    public var state: State
    /// For a failed migration: what happened and where.
    public var error: String?

    public init(version: String, name: String, checksum: String, appliedAt: String? = nil, appliedBy: String? = nil,
                durationMs: Int = 0, state: State = .applied, error: String? = nil)
    {
        self.version = version
        self.name = name
        self.checksum = checksum
        self.appliedAt = appliedAt
        self.appliedBy = appliedBy
        self.durationMs = durationMs
        self.state = state
        self.error = error
    }

    /// The record's version parsed (nil only for a hand-edited row).
    public var parsedVersion: MigrationVersion? { MigrationVersion(version) }
}

/// Everything the `Migrator` needs from a database, in small steps (dbmate's design),
/// so the migrator's logic can be tested against an in-memory fake.
///
/// `PostgresMigrationHistory` is the real one. Calls come from one thread.
public protocol MigrationHistory: AnyObject {
    /// Takes the run lock that serializes migrators on one database, waiting at most
    /// `timeoutSeconds` (0: no limit). Calls `onWait` once before it starts waiting.
    /// Throws `MigrationRefusal.lockTimeout` when the time runs out.
    func acquireLock(timeoutSeconds: Int, onWait: () -> Void) throws
    /// Releases the run lock (errors are ignored: closing the session releases it too).
    func releaseLock()
    /// Creates the history table when it does not exist.
    func ensureTable() throws
    /// Every history row (empty when the table does not exist yet).
    func records() throws -> [MigrationRecord]
    /// Adds a row (the database sets applied_at and applied_by).
    func insert(_ record: MigrationRecord) throws
    /// Replaces the row with the record's version (state, error, checksum, duration).
    func update(_ record: MigrationRecord) throws
    /// Removes the row of a version.
    func delete(version: String) throws
    /// Begins a transaction.
    func begin() throws
    /// Commits; throws when the database rolled back instead.
    func commit() throws
    /// Rolls back the open transaction.
    func rollback() throws
    /// True while a transaction is open and not failed.
    var isInTransaction: Bool { get }
    /// Runs migration SQL, possibly many statements; throws `PGError`.
    func execute(_ sql: String) throws
    /// Undoes session settings a migration may have made, between migrations.
    func resetSession() throws
    /// A thread-safe way to cancel the running statement (for Ctrl-C), if any.
    func makeInterrupter() -> (@Sendable () -> Void)?
    /// Limits how long migration statements wait for a lock (`lock_timeout`): for the
    /// open transaction (`local`) or the session.
    func setLockTimeout(_ timeout: Duration, local: Bool) throws
    /// Runs one `COPY ... FROM STDIN` with its data rows.
    func copyIn(_ statement: String, data: String) throws
    /// Starts watching, from another session, which sessions block this one's
    /// statements; nil when it cannot.
    func watchBlockers(after delay: Duration) -> BlockerWatch?
    /// After a lost connection: connects again and reads the history (nil when the
    /// server cannot be reached).
    func reconnectAndReadRecords() -> [MigrationRecord]?
    /// False once the connection is lost.
    var isConnected: Bool { get }
}

extension MigrationHistory {
    public func setLockTimeout(_ timeout: Duration, local: Bool) throws {}
    public func copyIn(_ statement: String, data: String) throws {
        throw PGError(kind: .client, message: "this history cannot run COPY FROM STDIN")
    }
    public func watchBlockers(after delay: Duration) -> BlockerWatch? { nil }
    public func reconnectAndReadRecords() -> [MigrationRecord]? { nil }
    public var isConnected: Bool { true }
}
