import WardenPostgres

/// Makes pgTAP usable in the run's transaction, as `supabase test db` does with
/// `create extension if not exists pgtap with schema extensions` (in `extensions` when
/// that schema exists, as on Supabase and the twin; else in the role's default
/// schema). Created inside the run's transaction, so it is rolled back with it when
/// it was not there before. When its schema is not on the search path, it is added
/// for the transaction only (`set_config(..., true)`), so `plan()`, `ok()` resolve.
///
/// pgTAP's control file says `superuser = false`: a role with CREATE on the schema
/// may create it. On the twin it is one of supautils' privileged extensions, whose
/// script runs as the superuser (`PrivateInstallation`), so its functions belong to the
/// superuser, as on Supabase, and a project's `alter default privileges ... revoke
/// execute on functions from public` does not take them from anon.
struct PgTAPExtension {
    let connection: Connection

    /// Makes pgTAP usable; returns the statement that puts its schema on the search
    /// path for the transaction (a no-op when it is there), to run again after a file's
    /// session was reset.
    @discardableResult
    func ensure() throws -> SQL? {
        let state = try connection.query(
            """
            select (select extnamespace::regnamespace::text from pg_extension where extname = 'pgtap'),
                   exists (select from pg_available_extensions where name = 'pgtap'),
                   to_regnamespace('extensions') is not null,
                   current_setting('server_version_num')::int / 10000,
                   current_user::text
            """)
        let row = state.rows.first ?? []
        func field(_ index: Int) -> String? { index < row.count ? row[index] : nil }
        var schema = field(0)
        if schema == nil {
            guard field(1) == "t" else {
                throw PgTAPError.notInstalled(package: "postgresql-\(field(3) ?? "<major>")-pgtap")
            }
            schema = try create(inExtensions: field(2) == "t", role: field(4) ?? "this role")
        }
        guard let schema else { return nil }
        let onSearchPath: SQL = """
            select set_config('search_path', current_setting('search_path') || ', ' || \(schema)::text, true)
            where not (\(schema)::text::regnamespace::name = any (current_schemas(false)))
            """
        try connection.query(onSearchPath)
        return onSearchPath
    }

    /// Creates pgTAP; returns the schema it went into.
    private func create(inExtensions: Bool, role: String) throws -> String? {
        do {
            try connection.savepoint {
                try connection.query(
                    inExtensions
                        ? "create extension if not exists pgtap with schema extensions"
                        : "create extension if not exists pgtap")
            }
        } catch let error as PGError where error.kind == .server {
            throw PgTAPError.cannotCreate(role: role, message: error.message)
        }
        return try connection.query(
            "select extnamespace::regnamespace::text from pg_extension where extname = 'pgtap'"
        ).scalar
    }
}
