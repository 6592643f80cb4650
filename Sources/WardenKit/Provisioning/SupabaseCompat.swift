import WardenPostgres

/// Makes a plain PostgreSQL database behave like a Supabase project where access
/// control is concerned: the API roles, the `auth` schema with `auth.users`, the
/// `auth.uid()` family, and Supabase's default privileges in `public`.
///
/// The SQL lives in `SupabaseCompat.sql`, embedded in the binary. On a database that
/// already has everything (a real Supabase project, or one bootstrapped before),
/// nothing is run and nothing changes.
public enum SupabaseCompat {
    /// The roles a Supabase client request may run as, plus the login role that switches.
    public static let roles = ["anon", "authenticated", "service_role", "authenticator"]

    /// The compatibility script's text.
    public static var script: String { String(decoding: PackageResources.SupabaseCompat_sql, as: UTF8.self) }

    /// What of Supabase's access-control surface a database has.
    public struct Inventory: Equatable, Sendable {
        public var presentRoles: Set<String>
        public var hasAuthUsers: Bool
        public var hasAuthFunctions: Bool

        public var missingRoles: [String] { SupabaseCompat.roles.filter { !presentRoles.contains($0) } }
        /// True when roles, `auth.users` and `auth.uid()` all exist.
        public var isComplete: Bool { missingRoles.isEmpty && hasAuthUsers && hasAuthFunctions }

        /// The missing pieces, in words.
        public var missing: [String] {
            missingRoles.map { "role \($0)" } + (hasAuthUsers ? [] : ["auth.users"])
                + (hasAuthFunctions ? [] : ["auth.uid()/role()/email()/jwt()"])
        }
    }

    /// What `bootstrap` did.
    public enum Outcome: Equatable, Sendable {
        /// Everything was there already; nothing was changed.
        case alreadyPresent
        /// The script ran and created these pieces.
        case installed(created: [String])
    }

    /// Reads which roles, tables and functions exist.
    public static func inventory(_ connection: Connection) throws -> Inventory {
        let row = try connection.query(
            """
            select coalesce((select string_agg(rolname, ',') from pg_catalog.pg_roles
                              where rolname = any($1::text[])), ''),
                   to_regclass('auth.users') is not null,
                   to_regprocedure('auth.uid()') is not null
                     and to_regprocedure('auth.role()') is not null
                     and to_regprocedure('auth.email()') is not null
                     and to_regprocedure('auth.jwt()') is not null
            """, ["{\(roles.joined(separator: ","))}"]
        ).rows.first ?? []
        let names = (row.first ?? nil)?.split(separator: ",").map(String.init) ?? []
        return Inventory(
            presentRoles: Set(names), hasAuthUsers: row.count > 1 && row[1] == "t",
            hasAuthFunctions: row.count > 2 && row[2] == "t")
    }

    /// Installs what is missing, in one transaction; does nothing on a complete database.
    @discardableResult
    public static func bootstrap(_ connection: Connection) throws -> Outcome {
        let before = try inventory(connection)
        if before.isComplete { return .alreadyPresent }
        do {
            try installRetryingRaces(connection)
        } catch let error as PGError where error.sqlState == .insufficientPrivilege {
            var explained = error
            explained.hint = "bootstrap creates roles (one with BYPASSRLS) and the auth schema: connect as a superuser"
            throw explained
        }
        return .installed(created: before.missing)
    }

    /// Roles and role memberships are cluster-wide, so two databases of one cluster
    /// bootstrapped at once can collide on them (unique violation, or "tuple
    /// concurrently updated"). The script is idempotent, so it is simply run again.
    private static func installRetryingRaces(_ connection: Connection, attempts: Int = 3) throws {
        for attempt in 1...attempts {
            do {
                try connection.transaction { try connection.execute(script) }
                return
            } catch let error as PGError
                where attempt < attempts && (error.sqlState == .uniqueViolation || error.sqlState?.rawValue == "XX000")
            {
                continue
            }
        }
    }
}
