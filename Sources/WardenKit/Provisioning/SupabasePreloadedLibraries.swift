/// The server libraries a Supabase project's PostgreSQL preloads
/// (`shared_preload_libraries`) that the twin's ephemeral server can load too.
///
/// Source: `supabase/postgres`, `ansible/files/postgresql_config/postgresql.conf.j2`:
/// `shared_preload_libraries = 'pg_stat_statements, pgaudit, plpgsql, plpgsql_check,
/// pg_cron, pg_net, pgsodium, timescaledb, auto_explain, pg_tle, plan_filter,
/// supabase_vault'` (the same list is what `show shared_preload_libraries` prints on
/// hosted projects). Of those, PostgreSQL itself ships `pg_stat_statements`, `plpgsql`
/// and `auto_explain`; `plpgsql_check` and `pg_cron` come from their Debian packages
/// (`.ci/run` installs them); the rest have no package here, or a stand-in of pgwarden's
/// without a library (`pg_net`, `pgsodium`, `supabase_vault`). docs/supabase-twin.md,
/// "Preloaded libraries".
enum SupabasePreloadedLibraries {
    /// Supabase's order, restricted to the libraries a plain server may have.
    static let names = ["pg_stat_statements", "plpgsql", "plpgsql_check", "pg_cron", "auto_explain"]

    /// Those whose shared object is in `libraryFolder` (the server's `pkglibdir`).
    static func available(in libraryFolder: String, fileExists: (String) -> Bool) -> [String] {
        names.filter { fileExists("\(libraryFolder)/\($0).so") }
    }
}
