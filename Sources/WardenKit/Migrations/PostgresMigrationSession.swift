import Foundation
import WardenPostgres

/// Runs migrations on a PostgreSQL connection: a session-level advisory lock that
/// serializes migrators on one database, the connection's transactions, migration
/// SQL and COPY.
package final class PostgresMigrationSession: MigrationSession {
    /// The advisory lock key every pgwarden run takes (the ASCII bytes of "pgwarden").
    /// Advisory locks belong to one database, so runs on other databases never wait.
    package static let lockKey: Int64 = 0x7067_7761_7264_656E

    /// The connection migrations run on.
    package let connection: Connection

    package init(connection: Connection) {
        self.connection = connection
        prepareSession()
    }

    /// Connects; a failure is one line (libpq's multi-line message joined), redacted.
    package static func connect(_ settings: ConnectionSettings) throws -> PostgresMigrationSession {
        do {
            return PostgresMigrationSession(connection: try Connection(settings))
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
        var batch = PipelinedBatch()
        for unit in settingUnits { batch.add(unit) }
        _ = try? connection.run(batch)
    }

    /// The settings, each in a unit of its own: one that fails (an older server, a
    /// setting the server refuses) is skipped without stopping the other.
    private var settingUnits: [[SQL]] {
        var units: [[SQL]] = [["set standard_conforming_strings = on"]]
        if connection.serverVersion >= 140_000 { units.append(["set client_connection_check_interval = '2s'"]) }
        return units
    }

    /// This session's server process id (cached).
    private lazy var backendPID: Int? = try? connection.fetchOne("select pg_backend_pid()")?.int(0)

    /// Polls `pg_try_advisory_lock` rather than blocking in `pg_advisory_lock`: a
    /// statement blocked on the lock is an open transaction with a snapshot, which a
    /// `CREATE INDEX CONCURRENTLY` in the running migration would wait for: a deadlock.
    package func acquireLock(timeout: Duration?, onWait: () -> Void) throws {
        if try tryLock() { return }
        onWait()
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        var pause = Duration.milliseconds(50)
        while deadline.map({ clock.now < $0 }) ?? true {
            Thread.sleep(forTimeInterval: pause.inSeconds)
            if try tryLock() { return }
            pause = min(pause * 2, .milliseconds(500))
        }
        throw MigrationRefusal.lockTimeout(waited: timeout ?? .zero)
    }

    private func tryLock() throws -> Bool {
        try connection.fetchBool("select pg_try_advisory_lock(\(Self.lockKey))")
    }

    package func releaseLock() {
        _ = try? connection.query("select pg_advisory_unlock(\(Self.lockKey))")
    }

    package func inTransaction(_ body: () throws -> Void) throws {
        try connection.inTransaction {
            try body()
            return .commit
        }
    }

    package var isInTransaction: Bool { connection.transactionStatus == .inTransaction }

    package func execute(statements: [String]) throws { try connection.execute(unsafeStatements: statements) }

    package func transactionSettings(including names: [String]) throws -> [String: String] {
        let rows = try connection.query(
            """
            select name, setting from pg_settings where context in ('user', 'superuser')
            union all select name, coalesce(current_setting(name, true), '') from unnest(\(array: names + ["role"])::text[]) name
            """).rows
        var settings: [String: String] = [:]
        for row in rows { if let name = row[0] { settings[name] = row[1] ?? "" } }
        return settings
    }

    /// `set_config(name, value, true)` for each changed setting, except those a
    /// session-level SET in the pair changed (a COMMIT keeps those) and the
    /// transaction's own characteristics (which cannot change mid-transaction).
    package func restoreTransactionSettings(_ before: [String: String], keeping sessionNames: Set<String>) throws {
        let now = try transactionSettings(including: Array(before.keys.filter { $0.contains(".") }))
        let changed = before.filter { name, value in
            now[name] != value && !sessionNames.contains(name) && !name.hasPrefix("transaction_")
        }.sorted { ($0.key == "role" ? 0 : 1, $0.key) < ($1.key == "role" ? 0 : 1, $1.key) }  // the role first
        guard !changed.isEmpty else { return }
        try connection.query(
            """
            select set_config(name, value, true) from unnest(\(array: changed.map(\.key))::text[], \(array: changed.map(\.value))::text[]) \
            as t(name, value)
            """)
    }

    /// `reset all` and `reset role`, so a migration's session-level SET does not leak
    /// into the next one; then pgwarden's own session settings again.
    ///
    /// One round trip: the resets and the settings pipelined, each statement its own
    /// protocol message; a failed reset is thrown, a failed setting ignored (as before).
    package func resetSession() throws {
        var batch = PipelinedBatch()
        let resets = batch.add(["reset all", "reset role"])
        for unit in settingUnits { batch.add(unit) }
        let outcomes = try connection.run(batch)
        for outcome in outcomes[resets] { _ = try outcome.get() }
    }

    package func setLockTimeout(_ timeout: Duration, local: Bool) throws {
        let milliseconds = max(1, timeout.wholeMilliseconds)
        try connection.query("select set_config('lock_timeout', \(milliseconds)::text, \(local))")
    }

    package func copyIn(_ statement: String, data: String) throws {
        try connection.copyIn(unsafeStatement: statement, data: data)
    }

    package func watchBlockers(after delay: Duration) -> BlockerWatch? {
        guard let backendPID else { return nil }
        return BlockerWatch(settings: connection.settings, pid: backendPID, delay: delay)
    }

    package var isConnected: Bool { connection.isOpen }

    package func reconnectAndReadRecords() -> [MigrationRecord]? {
        guard let fresh = try? Connection(connection.settings) else { return nil }
        return try? PostgresMigrationHistory(connection: fresh).records()
    }
}
