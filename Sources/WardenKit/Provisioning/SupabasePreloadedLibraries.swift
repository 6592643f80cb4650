/// The server libraries a Supabase project's PostgreSQL preloads
/// (`shared_preload_libraries`) that the twin's ephemeral server preloads too.
///
/// Source: `supabase/postgres`, `ansible/files/postgresql_config/postgresql.conf.j2`:
/// `shared_preload_libraries = 'pg_stat_statements, pgaudit, plpgsql, plpgsql_check,
/// pg_cron, pg_net, pgsodium, timescaledb, auto_explain, pg_tle, plan_filter,
/// supabase_vault'` (the same list is what `show shared_preload_libraries` prints on
/// hosted projects). The twin preloads `pg_stat_statements`, `plpgsql` and `pg_cron`
/// (when its package is installed). Left out, measured on this machine: `plpgsql_check`
/// (about 20 ms more to every server start, which every `pgwarden dev` pays) and
/// `auto_explain` (about 10 ms); `create extension plpgsql_check` or `load
/// 'auto_explain'` loads them where a project uses them. The rest have no package here,
/// or a stand-in of pgwarden's without a library (`pg_net`, `pgsodium`,
/// `supabase_vault`). docs/supabase-twin.md, "Preloaded libraries".
enum SupabasePreloadedLibraries {
    /// Supabase's order, restricted to those the twin preloads.
    static let names = ["pg_stat_statements", "plpgsql", "pg_cron"]

    /// Those whose shared object is in `libraryFolder` (the server's `pkglibdir`).
    static func available(in libraryFolder: String, fileExists: (String) -> Bool) -> [String] {
        names.filter { fileExists("\(libraryFolder)/\($0).so") }
    }
}
