import Foundation
import WardenPostgres

/// How a Supabase CLI project's Data API is set up, from the `supabase/config.toml`
/// beside its plan (`[api] schemas`, `[api] extra_search_path`,
/// `[auth.hook.custom_access_token]`), with Supabase's defaults where the file is
/// absent or silent. `plan draft` and the observation `test` and `dev` make without a
/// plan use it, so that they look where the project's API looks and sign in as its
/// auth server would.
///
/// ```swift
/// let api = try ProjectAPISettings(nearPlan: "supabase/access-plan.yml")
/// let draft = try PlanDrafter(connection: connection, api: api).draft()
/// ```
public struct ProjectAPISettings: Sendable, Equatable {
    /// The project's own schemas among `[api] schemas`, in its order. Supabase's own
    /// (`graphql_public`, `storage`, `vault`, ...: `LintCatalog.systemSchemas`) are left
    /// out: their objects are not the project's (`plan draft --schema storage` takes
    /// storage's policies in). When the file names none of the project's, `public`.
    public var exposedSchemas: [String]
    /// The schemas after a request's own in its `search_path` (`[api]
    /// extra_search_path`, else `AccessPlan.supabaseExtraSearchPath`).
    public var extraSearchPath: [String]
    /// The enabled custom access token hook, or nil.
    public var accessTokenHook: AccessTokenHook?
    /// Whether clients may sign up (`[auth] enable_signup`; true, Supabase's default,
    /// when not given).
    public var signUpsEnabled = true

    /// Supabase's defaults: `public` exposed, `public, extensions` searched, no hook.
    public init(
        exposedSchemas: [String] = ["public"], extraSearchPath: [String] = AccessPlan.supabaseExtraSearchPath,
        accessTokenHook: AccessTokenHook? = nil
    ) {
        self.exposedSchemas = exposedSchemas
        self.extraSearchPath = extraSearchPath
        self.accessTokenHook = accessTokenHook
    }

    /// The settings of the `supabase/config.toml` next to a plan at `path`, else of the
    /// project at `projectRoot` (as `AccessPlan(contentsOf:projectRoot:)` finds it; the
    /// plan need not exist yet), read once.
    /// - Throws: `AccessPlanError` naming the file for a malformed file or value, or an
    ///   HTTP hook.
    public init(nearPlan path: String, projectRoot: URL? = nil) throws {
        let values = try PlanSupabaseConfig.read(near: path, projectRoot: projectRoot?.relativePath)
        self.init(
            exposedSchemas: Self.projectSchemas(values.schemas ?? []),
            extraSearchPath: values.extraSearchPath ?? AccessPlan.supabaseExtraSearchPath,
            accessTokenHook: values.hook)
        signUpsEnabled = values.signUpsEnabled ?? true
    }

    /// These settings with the exposed schemas the database itself sets for PostgREST,
    /// where it does: the `authenticator` role's `pgrst.db_schemas` (`alter role
    /// authenticator set pgrst.db_schemas = 'public, app'`, as Supabase's PGRST106
    /// troubleshooting article has projects do), this database's own setting first.
    /// PostgREST's in-database configuration overrides its config file and environment
    /// (postgrest.org, "Configuration"), so it overrides `[api] schemas` too. The second
    /// value is that setting's text (nil: none, the settings unchanged).
    public func withInDatabaseSchemas(on connection: Connection) throws -> (settings: ProjectAPISettings, setting: String?) {
        guard let value = try connection.query(Self.inDatabaseSchemasSQL).scalar else { return (self, nil) }
        let names = value.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }.filter { !$0.isEmpty }
        var settings = self
        settings.exposedSchemas = Self.projectSchemas(names)
        return (settings, value)
    }

    /// `authenticator`'s `pgrst.db_schemas`, for this database or all, or no row.
    static let inDatabaseSchemasSQL: SQL = """
        select substr(c, strpos(c, '=') + 1)
        from pg_catalog.pg_db_role_setting s
          join pg_catalog.pg_roles r on r.oid = s.setrole
          cross join lateral unnest(s.setconfig) as c
        where r.rolname = 'authenticator' and c like 'pgrst.db\\_schemas=%'
          and s.setdatabase in (0, (select d.oid from pg_catalog.pg_database d where d.datname = current_database()))
        order by s.setdatabase desc
        limit 1
        """

    /// These settings without the exposed schemas the database does not have (yet: a
    /// migration not applied may create one; the Supabase CLI does not refuse them
    /// either), `public` when none is left, and the names left out.
    public func leavingOutMissingSchemas(on connection: Connection) throws -> (settings: ProjectAPISettings, missing: [String]) {
        let missing = try PlanCatalogCheck.missingSchemas(exposedSchemas, on: connection)
        var settings = self
        settings.exposedSchemas = Self.projectSchemas(exposedSchemas.filter { !missing.contains($0) })
        return (settings, missing)
    }

    /// `[api] schemas` without Supabase's own and repeats; `public` when nothing is left
    /// (unless `orPublic` is false).
    static func projectSchemas(_ configured: [String], orPublic: Bool = true) -> [String] {
        var kept: [String] = []
        for name in configured where !kept.contains(name) && !LintCatalog.systemSchemas.contains(name) {
            kept.append(name)
        }
        return kept.isEmpty && orPublic ? ["public"] : kept
    }
}
