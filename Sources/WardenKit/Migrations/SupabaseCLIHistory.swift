import WardenPostgres

/// The Supabase CLI's migration history, `supabase_migrations.schema_migrations`
/// (`version text primary key, statements text[], name text`; newer CLI versions add
/// columns, which pgwarden leaves to their defaults). `supabase db push` and
/// `supabase migration up` insert one row per applied file: its version, its name
/// (the file name after `<version>_`, without `.sql`) and its statements; `supabase
/// migration repair --status reverted` deletes the row. Facts from the Supabase CLI's
/// `pkg/migration/history.go` and `file.go` (docs/supabase-layout.md).
package struct SupabaseCLIHistory {
    package static let table = "supabase_migrations.schema_migrations"

    let connection: Connection

    /// True when the table exists.
    func exists() throws -> Bool {
        try connection.fetchBool("select to_regclass('supabase_migrations.schema_migrations') is not null")
    }

    /// Every recorded version with its name (versions that are not digits are left out).
    func rows() throws -> [(version: MigrationVersion, text: String, name: String)] {
        guard try exists() else { return [] }
        let result = try connection.query("select version, coalesce(name, '') from supabase_migrations.schema_migrations")
        return result.rows.compactMap { row in
            guard let text = row[0], let version = MigrationVersion(text) else { return nil }
            return (version, text, row[1] ?? "")
        }
    }

    /// Creates the schema and table when missing, and the `statements` and `name` columns
    /// a table made by an old CLI lacks, as the CLI does before it records a migration.
    func ensureTable() throws {
        if try !exists() {
            try connection.execute(
                """
                create schema if not exists supabase_migrations;
                create table if not exists supabase_migrations.schema_migrations (
                    version text not null primary key, statements text[], name text);
                """)
            return
        }
        let columns = try connection.query(
            """
            select count(*) from pg_attribute
            where attrelid = 'supabase_migrations.schema_migrations'::regclass
              and attname in ('statements', 'name') and not attisdropped
            """)
        if columns.rows.first?[0] != "2" {
            try connection.execute(
                """
                alter table supabase_migrations.schema_migrations add column if not exists statements text[];
                alter table supabase_migrations.schema_migrations add column if not exists name text;
                """)
        }
    }

    /// Records an applied migration as the CLI does (a version already there stays as it is).
    func insert(version: String, name: String, statements: [String]) throws {
        try connection.query(Self.insertSQL(version: version, name: name, statements: statements))
    }

    static func insertSQL(version: String, name: String, statements: [String]) -> SQL {
        """
        insert into supabase_migrations.schema_migrations (version, name, statements)
        values (\(version), \(name), \(array: statements)::text[])
        on conflict (version) do nothing
        """
    }

    /// Removes a rolled-back migration's row.
    func delete(version: MigrationVersion) throws {
        guard try exists() else { return }
        try connection.query(Self.deleteSQL(version: version))
    }

    /// The delete `delete(version:)` runs once it knows the table exists.
    static func deleteSQL(version: MigrationVersion) -> SQL {
        // Versions match as numbers, so `0042` and `42` are one version, as in pgwarden's history.
        """
        delete from supabase_migrations.schema_migrations
        where version ~ '^[0-9]+$' and ltrim(version, '0') = ltrim(\(version.text), '0')
        """
    }
}
