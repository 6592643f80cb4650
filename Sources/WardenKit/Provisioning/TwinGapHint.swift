import WardenPostgres

/// pgwarden's hint for an error that says more about this server than about the SQL
/// that met it: an extension Supabase has and this server lacks (`MissingExtension`),
/// one Supabase lets `postgres` create and this server does not
/// (`RefusedPrivilegedExtension`), an object of the `realtime` or `pgsodium` schemas
/// the twin does not mirror (`MissingPlatformObject`), or a pg_cron older than
/// Supabase's. Given wherever a user's SQL runs: migrations, seeds, pgTAP files.
package enum TwinGapHint {
    package static func hint(for error: PGError) -> String? {
        MissingExtension(error)?.hint ?? RefusedPrivilegedExtension(error)?.hint ?? MissingPlatformObject(error)?.hint
            ?? oldCronHint(error)
    }

    /// pg_cron reads interval schedules (`'10 seconds'`, 1 to 59 seconds) since 1.5;
    /// Supabase ships 1.6 (supabase/postgres `nix/ext/pg_cron.nix`), Debian 12's
    /// package is 1.4, which calls them an invalid schedule (22023).
    static func oldCronHint(_ error: PGError) -> String? {
        let prefix = "invalid schedule: "
        guard error.sqlState == .invalidParameterValue, error.message.hasPrefix(prefix) else { return nil }
        let words = error.message.dropFirst(prefix.count).split(separator: " ")
        guard words.count == 2, let seconds = Int(words[0]), (1...59).contains(seconds),
            words[1] == "seconds" || words[1] == "second"
        else { return nil }
        return "this server's pg_cron is older than 1.5, which added interval schedules such as '10 seconds'; "
            + "Supabase ships pg_cron 1.6: run against a server with a newer pg_cron (--database-url, or "
            + "PGWARDEN_PG_BINDIR to a PostgreSQL build that has one)"
    }
}
