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
            ?? oldCronHint(error) ?? extensionSchemaHint(error) ?? newerSettingHint(error) ?? newerPrivilegeHint(error)
            ?? eventTriggerHint(error)
    }

    /// `permission denied to create event trigger` (42501): on Supabase postgres may
    /// (supautils), and the twin runs such a statement as Supabase does in a migration
    /// or seed in a transaction (`EventTriggerLift`), but not elsewhere.
    static func eventTriggerHint(_ error: PGError) -> String? {
        guard error.sqlState == .insufficientPrivilege, error.message.hasPrefix("permission denied to create event trigger")
        else { return nil }
        return "on Supabase, postgres may create event triggers (supautils creates them as the superuser and makes postgres "
            + "the owner); pgwarden's twin does the same for a statement of a migration or seed that runs in a transaction, "
            + "but not here (a transaction:false section, a pgTAP file, or a server that is not pgwarden's twin, where only "
            + "a superuser may)"
    }

    /// Privileges added after PostgreSQL 15 (`MAINTAIN`, PostgreSQL 17's release notes),
    /// which a dump of a project on 17 grants and an older server calls unrecognized
    /// (42601, `unrecognized privilege type "maintain"`): a coaching app's and a CRM's
    /// migrations stopped there with no word of the version (round thirty-four).
    static let newerPrivileges: [String: Int] = ["maintain": 17]

    static func newerPrivilegeHint(_ error: PGError) -> String? {
        let prefix = "unrecognized privilege type \""
        guard error.sqlState == .syntaxError, error.message.lowercased().hasPrefix(prefix),
              let name = error.message.dropFirst(prefix.count).split(separator: "\"").first.map({ $0.lowercased() }),
              let version = newerPrivileges[name] else { return nil }
        return "\(name.uppercased()) is a PostgreSQL \(version) privilege, which a dump of a project on \(version) grants; this "
            + "server is older and does not know it: remove it from the GRANT (or REVOKE) list of this migration, or run "
            + "against a PostgreSQL \(version) server with --database-url"
    }

    /// Settings added after PostgreSQL 15 that a newer `pg_dump` writes at the top of a
    /// dump (`SET transaction_timeout = 0;`, PostgreSQL 17's release notes), which an
    /// older server calls unrecognized (42704): a migration dumped from a project on 17.
    static let newerSettings: [String: Int] = ["transaction_timeout": 17]

    static func newerSettingHint(_ error: PGError) -> String? {
        let prefix = "unrecognized configuration parameter \""
        guard error.sqlState?.rawValue == "42704", error.message.hasPrefix(prefix),
              let name = error.message.dropFirst(prefix.count).split(separator: "\"").first,
              let version = newerSettings[String(name)] else { return nil }
        return "\(name) is a PostgreSQL \(version) setting, which pg_dump \(version) writes at the top of a dump; this server "
            + "is older and does not know it: delete that SET line from the migration (it only sets the dump's own session), "
            + "or run against a PostgreSQL \(version) server with --database-url"
    }

    /// The schemas an extension makes when it is created, and the statement that creates
    /// it as Supabase's docs write it.
    static let extensionSchemas: [String: (name: String, statement: String)] = [
        "cron": ("pg_cron", "create extension if not exists pg_cron with schema pg_catalog;"),
        "net": ("pg_net", "create extension if not exists pg_net with schema extensions;"),
    ]

    /// "schema "cron" does not exist" (3F000): no statement before this one created the
    /// extension that makes it. A hosted project often enabled it from the dashboard,
    /// which no migration records (`supabase db reset` fails the same way).
    static func extensionSchemaHint(_ error: PGError) -> String? {
        guard error.sqlState?.rawValue == "3F000", error.message.hasPrefix("schema \""), error.message.hasSuffix("\" does not exist"),
              let schema = error.message.split(separator: "\"").dropFirst().first,
              let extensionSchema = extensionSchemas[String(schema)] else { return nil }
        return "schema \(schema) is made by the \(extensionSchema.name) extension, which nothing before this statement creates "
            + "(enabling it from Supabase's dashboard is not recorded in a migration, so `supabase db reset` fails here too): "
            + "add `\(extensionSchema.statement)` to an earlier migration"
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
