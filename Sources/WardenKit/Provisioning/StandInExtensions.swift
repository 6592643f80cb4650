import Foundation
import WardenPostgres

/// pgwarden's own stand-ins for extensions Supabase offers that the local server
/// lacks, installed into the ephemeral server's private tree (`PrivateInstallation`)
/// only where the server has no extension of that name. Each is our own SQL, written
/// from the extension's documented API; what a stand-in cannot do raises an error
/// saying it is a local stand-in. docs/supabase-twin.md, "Stand-ins".
public enum StandInExtensions {
    /// One stand-in: the extension's name, the version it claims, what its control file
    /// says, and its install script.
    struct StandIn {
        var name: String
        var comment: String
        var requires: [String] = []
        /// The schema its control file fixes, as the real extension's does (PostgreSQL
        /// then creates it when missing and refuses any other); nil: the one asked for.
        var schema: String? = nil
        /// What the real extension does that the stand-in cannot, for the run report
        /// ("HTTP calls"); nil when the stand-in does all of it locally.
        var unprovable: String? = nil
        /// The real extension's versions Supabase ships, which a project's migration
        /// may name (`create extension pgmq with schema pgmq version '1.4.4'`, what the
        /// dashboard writes when Queues are enabled on PostgreSQL 15): each gets the same
        /// script, and each the next by an update that changes nothing. Without them
        /// the migration stopped with 22023, "no installation script nor update path".
        var versions: [String] = []
        var script: [UInt8]
    }

    /// The version every stand-in claims, so `pg_extension` shows it is not the real one.
    static let version = "pgwarden-stand-in"

    /// SQL true of a `pg_extension` row (`e`) that is a stand-in: its version says so, or,
    /// installed at a real version a migration named (`version '1.4.4'`), the comment
    /// its control file gave it.
    static let isStandInSQL = "(e.extversion = 'pgwarden-stand-in' "
        + "or coalesce(pg_catalog.obj_description(e.oid, 'pg_extension'), '') like 'pgwarden local stand-in%')"

    static var all: [StandIn] {
        [
            StandIn(name: "pg_net", comment: "pgwarden local stand-in for pg_net: requests are recorded, never sent",
                    unprovable: "HTTP calls", script: PackageResources.StandInPgNet_sql),
            StandIn(name: "http", comment: "pgwarden local stand-in for http: requests are recorded, then refused",
                    unprovable: "HTTP calls", script: PackageResources.StandInHttp_sql),
            StandIn(name: "pgjwt", comment: "pgwarden local stand-in for pgjwt: HS256/384/512 sign and verify",
                    requires: ["pgcrypto"], script: PackageResources.StandInPgjwt_sql),
            StandIn(name: "pgmq", comment: "pgwarden local stand-in for pgmq 1.5.1: queues as tables, from its documented API",
                    schema: "pgmq", versions: ["1.4.4", "1.5.1"], script: PackageResources.StandInPgmq_sql),
            StandIn(name: "supabase_vault", comment: "pgwarden local stand-in for Supabase Vault: registers the vault bootstrap made (not encrypted)",
                    unprovable: "Vault encryption", script: PackageResources.StandInSupabaseVault_sql),
            StandIn(name: "pg_graphql", comment: "pgwarden local stand-in for pg_graphql: its resolver says it is not available",
                    unprovable: "GraphQL", script: PackageResources.StandInPgGraphql_sql),
            StandIn(name: "pgsodium", comment: "pgwarden local stand-in for pgsodium: a registration with its roles; its cryptographic functions are absent",
                    schema: "pgsodium", unprovable: "pgsodium encryption",
                    script: PackageResources.StandInPgsodium_sql),
            StandIn(name: "pg_jsonschema", comment: "pgwarden local stand-in for pg_jsonschema: the common JSON Schema keywords, checked in PL/pgSQL",
                    script: PackageResources.StandInPgJsonschema_sql),
            StandIn(name: "pg_stat_monitor", comment: "pgwarden local stand-in for pg_stat_monitor: a registration; no query statistics are collected",
                    unprovable: "query statistics", script: PackageResources.StandInPgStatMonitor_sql),
            StandIn(name: "index_advisor", comment: "pgwarden local stand-in for index_advisor: its call suggests no index",
                    unprovable: "index suggestions", script: PackageResources.StandInIndexAdvisor_sql),
        ]
    }

    /// The names of the stand-ins pgwarden has.
    public static var names: [String] { all.map(\.name) }

    /// The stand-ins installed in the connection's database, by name.
    public static func installed(_ connection: Connection) throws -> [String] {
        try connection.query(
            "select e.extname::text from pg_catalog.pg_extension e where \(raw: isStandInSQL) order by 1"
        ).rows.compactMap { $0.first ?? nil }
    }

    /// The query for the installed stand-ins a run should name: each one the project made, and
    /// pg_net (which every new Supabase project has, for Database Webhooks) only when
    /// something the project wrote calls it: a function whose body names `net.http_`,
    /// a trigger calling `supabase_functions.http_request` (a Database Webhook), or a
    /// pg_cron job whose command names `net.http_`. A project that never makes an HTTP
    /// call has nothing a local run cannot prove there, so no line about it. Likewise
    /// supabase_vault (installed on every new project) only when a function the project
    /// wrote names `vault.`. One name a row; the run reads it with its other notes in
    /// one round trip.
    static let inUseSQL: SQL = """
        select e.extname::text from pg_catalog.pg_extension e
        where \(raw: isStandInSQL)
          and (e.extname not in ('pg_net', 'supabase_vault')
               -- supabase_vault, which the twin installs as a new project has it, only
               -- where a function the project wrote reads or writes the Vault
               or (e.extname = 'supabase_vault' and exists (
                    select 1 from pg_catalog.pg_proc p
                    where p.pronamespace <> 'pg_catalog'::pg_catalog.regnamespace
                      and p.pronamespace <> coalesce(pg_catalog.to_regnamespace('vault')::oid, 0)
                      and strpos(lower(p.prosrc), 'vault.') > 0
                      and not exists (select 1 from pg_catalog.pg_depend d
                                      where d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass and d.objid = p.oid
                                        and d.deptype = 'e')))
               or e.extname = 'pg_net' and (exists (
                    select 1 from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
                    -- pg_catalog's thousands of functions are left out first, by an oid
                    -- comparison (most of this query's time was joining each to its schema);
                    -- the CASE keeps the pattern off the other platform schemas' functions.
                    where p.pronamespace <> 'pg_catalog'::pg_catalog.regnamespace
                      and case when n.nspname not in ('net', 'supabase_functions', 'pg_catalog', 'information_schema')
                               -- strpos first: the same test, without the regex engine,
                               -- for bodies that cannot match (pgTAP's thousand, say).
                               then strpos(lower(p.prosrc), 'http_') > 0
                                    and p.prosrc ~* 'net\\s*\\.\\s*"?http_' else false end
                      and not exists (select 1 from pg_catalog.pg_depend d
                                      where d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass and d.objid = p.oid
                                        and d.deptype = 'e'))
               or exists (
                    select 1 from pg_catalog.pg_trigger t join pg_catalog.pg_proc p on p.oid = t.tgfoid
                    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
                    where not t.tgisinternal and n.nspname = 'supabase_functions' and p.proname = 'http_request')
               or case when pg_catalog.to_regclass('cron.job') is null
                             or not pg_catalog.has_table_privilege('cron.job', 'select') then false
                       else (pg_catalog.xpath('/row/c/text()', pg_catalog.query_to_xml(
                               'select count(*) as c from cron.job where command ~* ''net\\s*\\.\\s*"?http_''',
                               false, true, '')))[1]::text <> '0' end))
        order by 1
        """

    /// The run report's line naming the stand-ins a database uses, and what of theirs
    /// (HTTP calls, GraphQL, ...) is not provable locally; nil when none.
    package static func reportLine(_ names: [String]) -> String? {
        guard !names.isEmpty else { return nil }
        let verb = names.count == 1 ? "is a pgwarden local stand-in, not the real extension" : "are pgwarden's local stand-ins, not the real extensions"
        var unprovable: [String] = []
        for name in names {
            if let what = all.first(where: { $0.name == name })?.unprovable, !unprovable.contains(what) { unprovable.append(what) }
        }
        let line = "stand-ins: \(names.joined(separator: ", ")) \(verb)"
        guard !unprovable.isEmpty else { return line + " (docs/supabase-twin.md)" }
        return line + ": what reaches \(names.count == 1 ? "it" : "them") (\(unprovable.joined(separator: ", "))) is not provable locally (docs/supabase-twin.md)"
    }

    /// Writes every stand-in whose extension the folder does not already have.
    static func install(into folder: URL) throws {
        let manager = FileManager.default
        for standIn in all where !manager.fileExists(atPath: folder.appendingPathComponent("\(standIn.name).control").path) {
            var control = """
                # \(standIn.comment)
                comment = '\(standIn.comment.replacingOccurrences(of: "'", with: "''"))'
                default_version = '\(version)'
                relocatable = false
                trusted = true

                """
            if !standIn.requires.isEmpty { control += "requires = '\(standIn.requires.joined(separator: ", "))'\n" }
            if let schema = standIn.schema { control += "schema = '\(schema)'\n" }
            try write(Array(control.utf8), to: folder.appendingPathComponent("\(standIn.name).control"))
            try write(standIn.script, to: folder.appendingPathComponent("\(standIn.name)--\(version).sql"))
            for (index, real) in standIn.versions.enumerated() {
                try write(standIn.script, to: folder.appendingPathComponent("\(standIn.name)--\(real).sql"))
                if index > 0 {
                    try write(Array("-- pgwarden local stand-in: the same API at every version\n".utf8),
                              to: folder.appendingPathComponent("\(standIn.name)--\(standIn.versions[index - 1])--\(real).sql"))
                }
            }
        }
    }

    private static func write(_ bytes: [UInt8], to file: URL) throws {
        do {
            try NewFile.write(bytes, to: file.path, mode: 0o644)
        } catch {
            throw ProvisioningError.serverFailed(step: "writing the stand-in \(file.lastPathComponent)", log: error.localizedDescription)
        }
    }
}
