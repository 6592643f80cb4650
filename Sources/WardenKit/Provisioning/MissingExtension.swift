import Foundation
import WardenPostgres

/// An extension a migration asks for that this server does not have (Supabase ships
/// many that plain PostgreSQL lacks): which one, and how to get it.
package struct MissingExtension: Equatable, Sendable {
    /// The extension's name, as in `create extension <name>`.
    package var name: String
    /// The server's major version, read from the missing control file's path.
    package var serverMajor: String?

    /// Debian/Ubuntu packages (`%@` is the server's major version) for extensions
    /// Supabase offers. Package names as published by Debian and by PostgreSQL's own
    /// repository, apt.postgresql.org (where pgvector and http come from).
    static let debianPackages: [String: String] = [
        "vector": "postgresql-%@-pgvector", "http": "postgresql-%@-http", "pg_cron": "postgresql-%@-cron",
        "pgtap": "postgresql-%@-pgtap", "postgis": "postgresql-%@-postgis-3", "pgrouting": "postgresql-%@-pgrouting",
        "pg_repack": "postgresql-%@-repack", "rum": "postgresql-%@-rum", "hypopg": "postgresql-%@-hypopg",
        "pgaudit": "postgresql-%@-pgaudit", "plpgsql_check": "postgresql-%@-plpgsql-check",
        "pg_partman": "postgresql-%@-partman", "pgroonga": "postgresql-%@-pgdg-pgroonga",
        "timescaledb": "timescaledb-2-postgresql-%@", "plv8": "postgresql-%@-plv8",
    ]

    /// Recognises PostgreSQL's "extension ... is not available" error (0A000, with the
    /// missing control file in its detail).
    package init?(_ error: PGError) {
        guard error.sqlState == .featureNotSupported, error.message.hasPrefix("extension \""),
            error.message.hasSuffix("\" is not available")
        else { return nil }
        name = String(error.message.dropFirst("extension \"".count).dropLast("\" is not available".count))
        serverMajor = error.detail.flatMap { detail in
            detail.range(of: #"/postgresql/[0-9]+/extension/"#, options: .regularExpression).map {
                String(detail[$0].dropFirst("/postgresql/".count).prefix { $0.isNumber })
            }
        }
    }

    /// The package that provides it on Debian or Ubuntu, when there is one.
    package var debianPackage: String? {
        Self.debianPackages[name].map { $0.replacingOccurrences(of: "%@", with: serverMajor ?? "<major>") }
    }

    /// What to do, in one hint: it is not available on the local twin (plain PostgreSQL
    /// and pgwarden has no stand-in for it, `StandInExtensions`), so run against a
    /// server that has it, or install it.
    package var hint: String {
        let elsewhere = "run against a server that has it: --database-url (e.g. Supabase's own image, supabase/postgres), "
            + "or PGWARDEN_PG_BINDIR to a PostgreSQL build with it installed"
        if let package = debianPackage {
            return "this server lacks the extension \(name), which Supabase provides: it is not available on the local twin. "
                + "Install it on the server (Debian/Ubuntu: apt-get install \(package), from apt.postgresql.org where Debian has none), "
                + "or \(elsewhere)"
        }
        guard PrivilegedExtensions.names.contains(name) else {
            // Not one Supabase's image ships: most often a database.dev package
            // (`basejump-supabase_test_helpers`), which pg_tle installs on Supabase.
            return "this server lacks the extension \(name), which is not one Supabase's image ships: it may be a "
                + "database.dev (dbdev) package, which pg_tle installs there and the local twin cannot. Put its SQL in your "
                + "own files instead (for a test helper, at the top of the first test file), or \(elsewhere)"
        }
        return "this server lacks the extension \(name), which Supabase provides and no Debian package does: "
            + "it is not available on the local twin. \(elsewhere.prefix(1).uppercased() + elsewhere.dropFirst()), "
            + "or keep the files that need it out of local runs"
    }
}
