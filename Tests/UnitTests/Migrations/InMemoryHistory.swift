import WardenKit
import TestSupport
import Testing

/// A `MigrationHistory` and `MigrationSession` in memory, with transactions: what a
/// transaction wrote is undone on rollback. `failures` makes `execute` throw for SQL
/// containing a key.
final class InMemoryHistory: MigrationHistory, MigrationSession {
    var rows: [MigrationRecord] = []
    var tableExists = false
    var executed: [String] = []
    var failures: [String: PGError] = [:]
    var lockHeld = false
    var lockAvailable = true
    var endsOwnTransaction: String?
    private var snapshot: (rows: [MigrationRecord], executed: [String])?

    func acquireLock(timeout: Duration?, onWait: () -> Void) throws {
        guard lockAvailable else {
            onWait()
            throw MigrationRefusal.lockTimeout(waited: timeout ?? .zero)
        }
        lockHeld = true
    }

    func releaseLock() { lockHeld = false }
    func ensureTable() throws { tableExists = true }
    func records() throws -> [MigrationRecord] { rows }
    func insert(_ record: MigrationRecord) throws { rows.append(record) }

    func update(_ record: MigrationRecord) throws {
        rows = rows.map { $0.version == record.version ? record : $0 }
    }

    func delete(version: String) throws { rows.removeAll { $0.version == version } }

    /// Commits at once (holds no COMMIT), then says so.
    func inTransaction(resetFirst: Bool, lockTimeout: Duration, committed: @escaping () -> Void,
                       _ body: (TransactionOpening) throws -> [SQL]) throws {
        if resetFirst { try resetSession() }
        snapshot = (rows, executed)
        do {
            let opening = TransactionOpening { statements in try self.execute(statements: statements) }
            #expect(try body(opening) == [], "this history writes through insert and delete")
            #expect(opening.isSent, "BEGIN was sent before the transaction ended")
        } catch {
            rollback()
            throw error
        }
        snapshot = nil
        committed()
    }

    private func rollback() {
        if let snapshot {
            rows = snapshot.rows
            executed = snapshot.executed
        }
        snapshot = nil
    }

    var isInTransaction: Bool { snapshot != nil }

    func execute(statements: [String]) throws {
        for statement in statements { try execute(statement) }
    }

    private func execute(_ sql: String) throws {
        if let key = failures.keys.first(where: { sql.contains($0) }), let error = failures[key] {
            throw error
        }
        executed.append(sql)
        if let marker = endsOwnTransaction, sql.contains(marker) { snapshot = nil }
    }

    func resetSession() throws {}

    /// The versions in the history, in order.
    var versions: [String] { rows.map(\.version) }
}
