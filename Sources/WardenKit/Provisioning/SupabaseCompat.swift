import WardenPostgres

/// Makes a plain PostgreSQL database a twin of a fresh Supabase project: Supabase's
/// roles (with `supabase_admin` the only superuser and `postgres` a non-superuser
/// that owns the database), the `auth`, `storage`, `realtime`, `extensions` and
/// `graphql_public` schemas, the `supabase_realtime` publication, and Supabase's grants and default
/// privileges. What it mirrors, and the source of each fact: docs/supabase-twin.md.
///
/// The SQL lives in `Twin/*.sql`, embedded in the binary, and runs in one
/// transaction as a superuser. It adds only what is missing, object by object: an
/// object that exists is never replaced, re-owned or re-granted. On a database that
/// has every piece (a Supabase project, or one bootstrapped before) nothing runs.
public enum SupabaseCompat {
    /// The roles of a Supabase project.
    public static let roles = [
        "supabase_admin", "postgres", "anon", "authenticated", "service_role", "authenticator",
        "supabase_auth_admin", "supabase_storage_admin", "dashboard_user", "supabase_replication_admin",
        "supabase_read_only_user", "supabase_functions_admin", "supabase_realtime_admin",
    ]

    /// The twin's SQL, in the order it runs: helpers, roles, database, auth (schema and
    /// types, tables, functions), storage, realtime, the stand-ins for supautils' policy grants,
    /// drop-trigger grants, event triggers and publications, the parameters supautils lets postgres set (PostgREST's among
    /// them), the Vault stand-in, and the platform's other schemas (graphql,
    /// supabase_functions) and extensions.
    public static var scripts: [(name: String, sql: String)] {
        [
            ("TwinHelpers.sql", PackageResources.TwinHelpers_sql), ("TwinRoles.sql", PackageResources.TwinRoles_sql),
            ("TwinDatabase.sql", PackageResources.TwinDatabase_sql), ("TwinAuth.sql", PackageResources.TwinAuth_sql),
            ("TwinAuthTables.sql", PackageResources.TwinAuthTables_sql),
            ("TwinAuthFunctions.sql", PackageResources.TwinAuthFunctions_sql),
            ("TwinStorage.sql", PackageResources.TwinStorage_sql), ("TwinRealtime.sql", PackageResources.TwinRealtime_sql),
            ("TwinPolicyGrants.sql", PackageResources.TwinPolicyGrants_sql),
            ("TwinDropTriggerGrants.sql", PackageResources.TwinDropTriggerGrants_sql),
            ("TwinEventTriggers.sql", PackageResources.TwinEventTriggers_sql),
            ("TwinPublications.sql", PackageResources.TwinPublications_sql),
            ("TwinAllowedConfigs.sql", PackageResources.TwinAllowedConfigs_sql), ("TwinVault.sql", PackageResources.TwinVault_sql),
            ("TwinPlatform.sql", PackageResources.TwinPlatform_sql),
            ("TwinExtensionScripts.sql", PackageResources.TwinExtensionScripts_sql),
        ].map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }
    }

    /// Which of a Supabase project's pieces a database has.
    public struct Inventory: Equatable, Sendable {
        /// The pieces that are missing, in words (`role anon`, `table auth.users`, ...).
        public var missing: [String]
        /// True when nothing is missing.
        public var isComplete: Bool { missing.isEmpty }
    }

    /// What `bootstrap` did.
    public enum BootstrapResult: Equatable, Sendable {
        /// Everything was there already; nothing was changed.
        case alreadyPresent
        /// These pieces were created (`role anon`, `table auth.users`, ...).
        case installed(created: [String])
    }

    /// The pieces whose presence makes a database complete, each with its check (the
    /// names are bound values).
    static let pieces: [(name: String, check: SQL)] =
        roles.map { piece("role \($0)", "exists (select 1 from pg_catalog.pg_roles where rolname = \($0))") }
        + ["auth", "storage", "extensions", "graphql_public", "graphql", "vault", "supabase_functions"].map {
            piece("schema \($0)", "to_regnamespace(\($0)) is not null")
        }
        + [
            "auth.users", "auth.identities", "auth.sessions", "auth.refresh_tokens", "auth.mfa_factors",
            "auth.mfa_challenges", "auth.mfa_amr_claims", "auth.audit_log_entries", "auth.instances",
            "auth.schema_migrations", "auth.flow_state", "auth.one_time_tokens", "auth.sso_providers",
            "auth.sso_domains", "auth.saml_providers", "auth.saml_relay_states", "storage.buckets", "storage.objects",
            "storage.s3_multipart_uploads", "storage.s3_multipart_uploads_parts",
            "vault.secrets", "vault.decrypted_secrets", "supabase_functions.hooks", "realtime.messages",
            "realtime.subscription",
        ].map { piece("table \($0)", "to_regclass(\($0)) is not null") }
        + [
            "auth.uid()", "auth.role()", "auth.email()", "auth.jwt()", "storage.foldername(text)",
            "storage.filename(text)", "storage.extension(text)",
            "vault.create_secret(text, text, text, uuid)", "supabase_functions.http_request()", "realtime.topic()",
            "realtime.send(jsonb, text, text, boolean)",
        ].map { piece("function \($0)", "to_regprocedure(\($0)) is not null") }
        + ["uuid-ossp", "pgcrypto"].map {
            piece("extension \($0)", "exists (select 1 from pg_catalog.pg_extension where extname = \($0))")
        }
        + [piece("publication supabase_realtime", "exists (select 1 from pg_catalog.pg_publication where pubname = 'supabase_realtime')")]

    private static func piece(_ name: String, _ check: SQL) -> (name: String, check: SQL) { (name, check) }

    /// Reads which pieces exist (one round trip).
    public static func inventory(_ connection: Connection) throws -> Inventory {
        let checks = pieces.map { piece -> SQL in "(\(piece.check))::text" }
        let row = try connection.query("select \(SQL.joined(checks, separator: ", "))").rows.first ?? []
        let missing = zip(pieces, row).filter { $0.1 != "true" }.map { $0.0.name }
        return Inventory(missing: row.count == pieces.count ? missing : pieces.map(\.name))
    }

    /// Adds what is missing, in one transaction; does nothing on a complete database.
    /// Needs a superuser (it creates roles, one of them a superuser, and schemas owned
    /// by Supabase's service roles).
    @discardableResult
    public static func bootstrap(_ connection: Connection) throws -> BootstrapResult {
        if try inventory(connection).isComplete { return .alreadyPresent }
        let created: [String]
        do {
            created = try installRetryingRaces(connection)
        } catch let error as PGError where error.sqlState == .insufficientPrivilege {
            var explained = error
            explained.hint = "bootstrap creates Supabase's roles and the auth and storage schemas: connect as a superuser"
            throw explained
        }
        return created.isEmpty ? .alreadyPresent : .installed(created: created)
    }

    /// Roles and role memberships are cluster-wide, so two databases of one cluster
    /// bootstrapped at once can collide on them (unique violation, or "tuple
    /// concurrently updated"). The scripts add only what is missing, so they simply
    /// run again.
    private static func installRetryingRaces(_ connection: Connection, attempts: Int = 3) throws -> [String] {
        for attempt in 1...attempts {
            do {
                return try connection.transaction {
                    for script in scripts { try connection.execute(unsafeScript: script.sql) }
                    return try connection.query("select kind || ' ' || name from pg_temp.twin_created").rows.compactMap { $0.first ?? nil }
                }
            } catch let error as PGError
                where attempt < attempts && (error.sqlState == .uniqueViolation || error.sqlState?.rawValue == "XX000")
            {
                continue
            }
        }
        return []
    }
}
