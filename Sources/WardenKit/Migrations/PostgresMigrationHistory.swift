import Foundation
import WardenPostgres

/// The migration history in PostgreSQL: the table `pgwarden.schema_migrations` (see
/// `tableDefinition`), and a session-level advisory lock that serializes migrators
/// on one database.
public final class PostgresMigrationHistory: MigrationHistory {
    /// The history table, schema-qualified.
    public static let table = "pgwarden.schema_migrations"

    /// The advisory lock key every pgwarden run takes (the ASCII bytes of "pgwarden").
    /// Advisory locks belong to one database, so runs on other databases never wait.
    public static let lockKey: Int64 = 0x7067_7761_7264_656E

    /// The history table's definition (created on the first `up`).
    public static let tableDefinition = """
        create schema if not exists pgwarden;
        create table if not exists pgwarden.schema_migrations (
            version     text primary key,
            name        text not null,
            checksum    text not null,
            applied_at  timestamptz not null default now(),
            applied_by  text not null default current_user,
            duration_ms bigint not null default 0,
            state       text not null default 'applied' check (state in ('applied', 'failed')),
            error       text
        );
        comment on table pgwarden.schema_migrations is
            'pgwarden migration history: one row per applied (or failed) migration';
        """

    /// The connection migrations run on.
    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
        prepareSession()
    }

    /// Connects; a failure is one line (libpq's multi-line message joined), redacted.
    public static func connect(_ settings: ConnectionSettings) throws -> PostgresMigrationHistory {
        do {
            return PostgresMigrationHistory(connection: try Connection(settings))
        } catch var error as PGError {
            error.message = error.message.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
            throw error
        }
    }

    /// Session settings for every migration: on PostgreSQL 14+, notice a vanished
    /// client (a killed pgwarden) within seconds, so its work is rolled back and its
    /// lock released instead of running on.
    ///
    /// `standard_conforming_strings` is set on: the statement splitter and the
    /// migrations' meaning assume it (see `SettingCheck`).
    private func prepareSession() {
        _ = try? connection.execute("set standard_conforming_strings = on")
        if connection.serverVersion >= 140_000 {
            _ = try? connection.execute("set client_connection_check_interval = '2s'")
        }
    }

    /// This session's server process id (cached).
    private lazy var backendPID: Int? = try? connection.query("select pg_backend_pid()").scalar.flatMap { Int($0) }

    /// Polls `pg_try_advisory_lock` rather than blocking in `pg_advisory_lock`: a
    /// statement blocked on the lock is an open transaction with a snapshot, which a
    /// `CREATE INDEX CONCURRENTLY` in the running migration would wait for: a deadlock.
    public func acquireLock(timeoutSeconds: Int, onWait: () -> Void) throws {
        if try tryLock() { return }
        onWait()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeoutSeconds)
        var pause = Duration.milliseconds(50)
        while timeoutSeconds == 0 || clock.now < deadline {
            Thread.sleep(forTimeInterval: pause.inSeconds)
            if try tryLock() { return }
            pause = min(pause * 2, .milliseconds(500))
        }
        throw MigrationRefusal.lockTimeout(seconds: timeoutSeconds)
    }

    private func tryLock() throws -> Bool {
        try connection.query("select pg_try_advisory_lock(\(Self.lockKey))").scalar == "t"
    }

    public func releaseLock() {
        _ = try? connection.query("select pg_advisory_unlock(\(Self.lockKey))")
    }

    public func ensureTable() throws {
        guard try !tableExists() else { return }
        _ = try connection.transaction { try connection.execute(Self.tableDefinition) }
    }

    func tableExists() throws -> Bool {
        try connection.query("select to_regclass('pgwarden.schema_migrations') is not null").scalar == "t"
    }

    public func records() throws -> [MigrationRecord] {
        guard try tableExists() else { return [] }
        let result = try connection.query(
            """
            select version, name, checksum,
                   to_char(applied_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                   applied_by, duration_ms, state, error
            from pgwarden.schema_migrations
            """)
        return result.rows.map { row in
            MigrationRecord(
                version: row[0] ?? "", name: row[1] ?? "", checksum: row[2] ?? "", appliedAt: row[3],
                appliedBy: row[4], durationMs: Int(row[5] ?? "") ?? 0,
                state: MigrationRecord.State(rawValue: row[6] ?? "") ?? .failed, error: row[7])
        }
    }

    /// History writes run as the session's own role, even when the migration just ran
    /// `set role` (inside its transaction, this changes nothing the migration did).
    private func resetRole() throws { try connection.execute("reset role") }

    public func insert(_ record: MigrationRecord) throws {
        try resetRole()
        try connection.query(
            """
            insert into pgwarden.schema_migrations (version, name, checksum, duration_ms, state, error)
            values ($1, $2, $3, $4, $5, $6)
            """,
            [record.version, record.name, record.checksum, String(record.durationMs), record.state.rawValue, record.error])
    }

    public func update(_ record: MigrationRecord) throws {
        try resetRole()
        try connection.query(
            """
            update pgwarden.schema_migrations
            set name = $2, checksum = $3, duration_ms = $4, state = $5, error = $6
            where version = $1
            """,
            [record.version, record.name, record.checksum, String(record.durationMs), record.state.rawValue, record.error])
    }

    public func delete(version: String) throws {
        try resetRole()
        try connection.query("delete from pgwarden.schema_migrations where version = $1", [version])
    }

    public func begin() throws { try connection.execute("begin") }

    public func commit() throws {
        if try connection.execute("commit").last?.commandTag == "ROLLBACK" {
            throw PGError(
                kind: .server, message: "the transaction had failed, so COMMIT rolled it back",
                sqlState: .inFailedTransaction)
        }
    }

    public func rollback() throws { try connection.execute("rollback") }

    public var isInTransaction: Bool { connection.transactionStatus == .inTransaction }

    public func execute(_ sql: String) throws { try connection.execute(sql) }

    /// `reset all` and `reset role`, so a migration's session-level SET does not leak
    /// into the next one; then pgwarden's own session settings again.
    public func resetSession() throws {
        try connection.execute("reset all; reset role")
        prepareSession()
    }

    public func setLockTimeout(_ timeout: Duration, local: Bool) throws {
        let milliseconds = max(1, timeout.wholeMilliseconds)
        try connection.execute("set \(local ? "local " : "")lock_timeout = \(milliseconds)")
    }

    public func copyIn(_ statement: String, data: String) throws {
        try connection.copyIn(statement, data: data)
    }

    public func watchBlockers(after delay: Duration) -> BlockerWatch? {
        guard let backendPID else { return nil }
        return BlockerWatch(settings: connection.settings, pid: backendPID, delay: delay)
    }

    public var isConnected: Bool { connection.isOpen }

    public func reconnectAndReadRecords() -> [MigrationRecord]? {
        guard let fresh = try? Connection(connection.settings) else { return nil }
        return try? PostgresMigrationHistory(connection: fresh).records()
    }

    public func makeInterrupter() -> (@Sendable () -> Void)? {
        guard let canceller = connection.makeCanceller() else { return nil }
        return { canceller.cancel() }
    }
}
