import WardenPostgres

/// Which history a row was read from.
package enum MigrationRecordOrigin: Equatable, Sendable {
    /// pgwarden's own history (`pgwarden.schema_migrations`). `inSupabaseHistory` is
    /// false when a Supabase project's `supabase_migrations.schema_migrations` lacks the
    /// version (nil: that history is not kept for this project).
    case pgwarden(inSupabaseHistory: Bool?)
    /// Only in `supabase_migrations.schema_migrations`: applied by the Supabase CLI
    /// (`supabase db push`, `migration up`); pgwarden adopts it as applied, with no checksum.
    case supabaseCLI

    package static let pgwarden = MigrationRecordOrigin.pgwarden(inSupabaseHistory: nil)
}

/// One row of the migration history.
package struct MigrationRecord: Equatable, Sendable {
    /// `applied`: the migration is in effect. `failed`: a `transaction:false` section
    /// (or one that ended its own transaction) did not finish, or is running right
    /// now; what it changed is unknown until someone checks and settles it
    /// (`Migrator.resolve`).
    package enum State: String, Sendable {
        case applied, failed
    }

    /// The version as written in the file name when it was applied.
    package var version: String
    package var name: String
    /// SHA-256 of the up section that was applied.
    package var checksum: String
    /// When it was applied, ISO 8601 in UTC (set by the database).
    package var appliedAt: String?
    /// Who applied it (`current_user`, set by the database).
    package var appliedBy: String?
    /// How long its section took to run, in milliseconds.
    package var durationMs: Int
    package var state: State
    /// For a failed migration: what happened and where.
    package var error: String?
    /// Which history the row comes from.
    package var origin: MigrationRecordOrigin = .pgwarden

    package init(version: String, name: String, checksum: String, appliedAt: String? = nil, appliedBy: String? = nil,
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
    package var parsedVersion: MigrationVersion? { MigrationVersion(version) }
}

/// The migration history's rows, and nothing else: the `Migrator` reads and writes it
/// in small steps (dbmate's design), so its logic can be tested against an in-memory
/// fake. What runs SQL, transactions and the run lock is a `MigrationSession`.
///
/// `PostgresMigrationHistory` is the real one. Calls come from one thread.
package protocol MigrationHistory: AnyObject {
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
    /// The statements that make `change`, for the session to send with the
    /// migration's COMMIT (one round trip); nil when this history writes only by
    /// calling `insert` or `delete`.
    func statements(making change: HistoryChange) -> [SQL]?
}

extension MigrationHistory {
    package func statements(making change: HistoryChange) -> [SQL]? { nil }
}

/// What a migration's transaction changes in the history.
package enum HistoryChange {
    /// Applied: its row added.
    case insert(MigrationRecord)
    /// Rolled back: the row of this version removed.
    case delete(version: String)
}
