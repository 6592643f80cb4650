import WardenPostgres

/// pgwarden's history shared with the Supabase CLI's.
///
/// Reading: on a database that has `supabase_migrations.schema_migrations`, a version
/// recorded there and not in pgwarden's history counts as applied (adopted: origin
/// `.supabaseCLI`, no checksum), so pgwarden never re-runs what `supabase db push`
/// applied. Writing (a Supabase CLI project, `recordsInSupabaseHistory`): every
/// migration pgwarden applies or rolls back is also inserted into or deleted from the
/// Supabase CLI's table, on the same connection, so in the migration's own
/// transaction; pgwarden's own history is written as before.
package final class SharedMigrationHistory: MigrationHistory {
    let own: MigrationHistory
    let supabase: SupabaseCLIHistory
    /// The folder's files, for the name and statements the CLI records.
    let files: [MigrationFile]
    let recordsInSupabaseHistory: Bool

    package init(own: MigrationHistory, connection: Connection, files: [MigrationFile], recordsInSupabaseHistory: Bool) {
        self.own = own
        supabase = SupabaseCLIHistory(connection: connection)
        self.files = files
        self.recordsInSupabaseHistory = recordsInSupabaseHistory
    }

    package func ensureTable() throws {
        try own.ensureTable()
        guard recordsInSupabaseHistory else { return }
        try supabase.connection.inTransaction {
            try supabase.ensureTable()
            return .commit
        }
    }

    package func records() throws -> [MigrationRecord] {
        var records = try own.records()
        guard try supabase.exists() else {
            if recordsInSupabaseHistory {
                for index in records.indices where records[index].state == .applied {
                    records[index].origin = .pgwarden(inSupabaseHistory: false)
                }
            }
            return records
        }
        let rows = try supabase.rows()
        let recorded = Set(rows.map(\.version))
        for index in records.indices where records[index].state == .applied {
            let inSupabase = records[index].parsedVersion.map(recorded.contains) ?? false
            records[index].origin = .pgwarden(inSupabaseHistory: recordsInSupabaseHistory ? inSupabase : nil)
        }
        let known = Set(records.compactMap(\.parsedVersion))
        for row in rows where !known.contains(row.version) {
            var record = MigrationRecord(version: row.text, name: row.name, checksum: "", appliedBy: "supabase CLI")
            record.origin = .supabaseCLI
            records.append(record)
        }
        return records
    }

    package func insert(_ record: MigrationRecord) throws {
        try own.insert(record)
        if record.state == .applied { try recordInSupabaseHistory(record) }
    }

    package func update(_ record: MigrationRecord) throws {
        try own.update(record)
        if record.state == .applied { try recordInSupabaseHistory(record) }
    }

    package func delete(version: String) throws {
        try own.delete(version: version)
        guard recordsInSupabaseHistory, let parsed = MigrationVersion(version) else { return }
        try supabase.delete(version: parsed)
    }

    /// pgwarden's own statements when the Supabase CLI's history is only read; when it
    /// is written too, nil (its writes check its table first, so they go one by one).
    package func statements(making change: HistoryChange) -> [SQL]? {
        recordsInSupabaseHistory ? nil : own.statements(making: change)
    }

    private func recordInSupabaseHistory(_ record: MigrationRecord) throws {
        guard recordsInSupabaseHistory else { return }
        let file = record.parsedVersion.flatMap { version in files.first { $0.version == version } }
        // Every statement of the file, as the CLI records what it parsed (BEGIN/COMMIT included).
        let statements = file?.up.statements.map(\.text) ?? []
        try supabase.ensureTable()
        try supabase.insert(version: record.version, name: file?.name ?? record.name, statements: statements)
    }
}
