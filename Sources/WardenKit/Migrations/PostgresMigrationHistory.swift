import Foundation
import WardenPostgres

/// The migration history in PostgreSQL: the table `pgwarden.schema_migrations` (see
/// `tableDefinition`). The run lock and the migrations' SQL are `PostgresMigrationSession`'s.
package final class PostgresMigrationHistory: MigrationHistory {
    /// The history table, schema-qualified.
    package static let table = "pgwarden.schema_migrations"

    /// The history table's definition (created on the first `up`).
    package static let tableDefinition = """
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

    /// The connection the history is read and written on.
    package let connection: Connection

    package init(connection: Connection) {
        self.connection = connection
    }

    package func ensureTable() throws {
        guard try !tableExists() else { return }
        try connection.inTransaction {
            try connection.execute(unsafeScript: Self.tableDefinition)
            return .commit
        }
    }

    func tableExists() throws -> Bool {
        try connection.fetchBool("select to_regclass('pgwarden.schema_migrations') is not null")
    }

    package func records() throws -> [MigrationRecord] {
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
    /// Runs `statement` as the session's own role (`reset role` first: a migration may
    /// have switched it), both in one pipelined unit: one round trip, and the statement
    /// does not run when the reset fails.
    private func asSessionRole(_ statement: SQL) throws {
        try connection.execute(["reset role", statement])
    }

    package func insert(_ record: MigrationRecord) throws {
        try asSessionRole(Self.insertSQL(record))
    }

    private static func insertSQL(_ record: MigrationRecord) -> SQL {
        """
        insert into pgwarden.schema_migrations (version, name, checksum, duration_ms, state, error)
        values (\(record.version), \(record.name), \(record.checksum), \(record.durationMs), \
        \(record.state.rawValue), \(record.error))
        """
    }

    private static func deleteSQL(version: String) -> SQL {
        "delete from pgwarden.schema_migrations where version = \(version)"
    }

    /// `reset role`, then the write (as `insert` and `delete` run them).
    package func statements(making change: HistoryChange) -> [SQL]? {
        switch change {
        case .insert(let record): return ["reset role", Self.insertSQL(record)]
        case .delete(let version): return ["reset role", Self.deleteSQL(version: version)]
        }
    }

    package func update(_ record: MigrationRecord) throws {
        try asSessionRole(
            """
            update pgwarden.schema_migrations
            set name = \(record.name), checksum = \(record.checksum), duration_ms = \(record.durationMs),
                state = \(record.state.rawValue), error = \(record.error)
            where version = \(record.version)
            """)
    }

    package func delete(version: String) throws {
        try asSessionRole(Self.deleteSQL(version: version))
    }
}
