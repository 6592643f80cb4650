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

    /// What this run knows of the Supabase CLI's table: that it exists (read, or made),
    /// and that it has the columns pgwarden writes (`ensureTable` ran). Until a
    /// migration changes that table, its writes need no check first, so they go with
    /// the migration's COMMIT (`statements(making:)`); if one did change it, the write
    /// fails and the migration is rolled back with it.
    private var supabaseTableExists = false
    private var supabaseTableReady = false

    package func ensureTable() throws {
        try own.ensureTable()
        guard recordsInSupabaseHistory else { return }
        try supabase.connection.inTransaction {
            try supabase.ensureTable()
            return .commit
        }
        supabaseTableExists = true
        supabaseTableReady = true
    }

    package func records() throws -> [MigrationRecord] {
        var records = try own.records()
        supabaseTableExists = try supabase.exists()
        guard supabaseTableExists else {
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

    /// pgwarden's own statements, and, when the Supabase CLI's history is written too,
    /// its row's insert or delete; nil (write one by one, checking the table first)
    /// while this run does not know the table is there as needed.
    package func statements(making change: HistoryChange) -> [SQL]? {
        guard let ownStatements = own.statements(making: change) else { return nil }
        guard recordsInSupabaseHistory else { return ownStatements }
        switch change {
        case .insert(let record):
            guard record.state == .applied else { return ownStatements }
            guard supabaseTableReady else { return nil }
            let row = supabaseRow(record)
            return ownStatements + [SupabaseCLIHistory.insertSQL(version: record.version, name: row.name, statements: row.statements)]
        case .delete(let version):
            guard let parsed = MigrationVersion(version) else { return ownStatements }
            guard supabaseTableExists else { return nil }
            return ownStatements + [SupabaseCLIHistory.deleteSQL(version: parsed)]
        }
    }

    private func recordInSupabaseHistory(_ record: MigrationRecord) throws {
        guard recordsInSupabaseHistory else { return }
        let row = supabaseRow(record)
        try supabase.ensureTable()
        try supabase.insert(version: record.version, name: row.name, statements: row.statements)
    }

    /// The name and statements the CLI records for an applied migration: every
    /// statement of the file, as the CLI records what it parsed (BEGIN/COMMIT included).
    private func supabaseRow(_ record: MigrationRecord) -> (name: String, statements: [String]) {
        let file = record.parsedVersion.flatMap { version in files.first { $0.version == version } }
        return (file?.name ?? record.name, file?.up.statements.map(\.text) ?? [])
    }
}
