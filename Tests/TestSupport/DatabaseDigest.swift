import Foundation
import WardenKit
import WardenPostgres

/// A digest of everything a run could leave behind: the rows of every table in every
/// schema (system catalogs aside), the list of relations with their privileges and
/// row-level security flags, and the cluster's roles, memberships, policies and
/// per-role/database settings (`pg_db_role_setting`).
public enum DatabaseDigest {
    /// The whole digest, cluster-wide parts included: for a private cluster.
    public static func of(_ connection: Connection) throws -> [String: String] {
        try of(connection, onlyRoles: nil)
    }

    /// The digest with the cluster-wide parts narrowed to Supabase's roles (their
    /// attributes, memberships among them, and their settings for every database or
    /// this one): for tests on the shared test server, where other tests create roles
    /// and per-database settings at the same time.
    public static func ofDatabase(_ connection: Connection) throws -> [String: String] {
        try of(connection, onlyRoles: SupabaseCompat.roles)
    }

    private static func of(_ connection: Connection, onlyRoles: [String]?) throws -> [String: String] {
        // The role names are the twin's constants, spliced as literals.
        let names = onlyRoles.map { "(" + $0.map { "'\($0)'" }.joined(separator: ", ") + ")" }
        let among = { (column: String) in names.map { "\(column) in \($0)" } ?? "true" }
        let ofThisDatabase = names.map {
            "setdatabase in (0, (select oid from pg_database where datname = current_database()))"
                + " and (setrole = 0 or setrole::regrole::text in \($0))"
        } ?? "true"
        let tables = try connection.query(
            """
            select format('%I.%I', n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
              and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
            order by 1
            """
        ).rows.compactMap { $0[0] }
        var digest: [String: String] = [:]
        for table in tables {
            digest[table] = try rows("select * from \(table)", connection)
        }
        digest["(relations)"] = try rows(
            """
            select n.nspname, c.relname, c.relkind, c.relacl::text, c.relrowsecurity, c.relforcerowsecurity
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_to%'
            """, connection)
        digest["(roles)"] = try rows(
            """
            select rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolreplication,
                   rolbypassrls, rolconnlimit, rolvaliduntil, rolconfig from pg_roles where \(among("rolname"))
            """, connection)
        digest["(memberships)"] = try rows(
            """
            select r.rolname, m.rolname, g.rolname, a.admin_option from pg_auth_members a
            join pg_roles r on r.oid = a.roleid join pg_roles m on m.oid = a.member join pg_roles g on g.oid = a.grantor
            where \(among("r.rolname")) and \(among("m.rolname"))
            """, connection)
        digest["(policies)"] = try rows("select * from pg_policies", connection)
        digest["(settings)"] = try rows("select setdatabase, setrole, setconfig::text from pg_db_role_setting where \(ofThisDatabase)", connection)
        digest["(functions)"] = try rows(
            """
            select p.oid::regprocedure::text, p.proacl::text, md5(p.prosrc) from pg_proc p
            join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')
            """, connection)
        return digest
    }

    /// Row count and md5 of a query's rows, in a stable order.
    private static func rows(_ query: String, _ connection: Connection) throws -> String {
        try connection.query(
            "select count(*) || ':' || md5(coalesce(string_agg(to_jsonb(t)::text, ',' order by to_jsonb(t)::text), '')) from (\(raw: query)) t"
        ).scalar ?? ""
    }
}
