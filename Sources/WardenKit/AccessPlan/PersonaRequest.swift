import WardenPostgres

/// Everything PostgREST sets in a request's transaction for one persona (v13.0.7,
/// `src/PostgREST/Query.hs`: `search_path`, role settings, `role`,
/// `request.jwt.claims`, `request.method`, `request.path`, `request.headers`,
/// `request.cookies`), in one `select set_config(...)` statement, as PostgREST sends it.
struct PersonaRequest {
    var role: String
    /// `request.jwt.claims`: the token's claims as JSON text.
    var claimsJSON: String
    /// `request.headers`: lower-case header names, as supabase-js sends them.
    var headersJSON: String
    /// `request.cookies` (supabase-js sends none).
    var cookiesJSON: String = "{}"
    /// The role's own settings (`statement_timeout`, ...).
    var roleSettings: [(name: String, value: String)] = []
    var method: String = "GET"
    var path: String = "/"
    /// The schemas PostgREST adds after the request's own to its `search_path`
    /// (`db-extra-search-path`; the Supabase CLI's `[api] extra_search_path`).
    var extraSearchPath: [String] = AccessPlan.supabaseExtraSearchPath
    /// The schema the request is for (its `Accept-Profile` or `Content-Profile`); nil
    /// for a request on no route, whose `search_path` is left as the session's.
    var schema: String?

    /// The same persona asking for another route of `schema`, e.g. `POST /vehicles`.
    func routed(_ method: String, _ path: String, schema: String) -> PersonaRequest {
        var copy = self
        copy.method = method
        copy.path = path
        copy.schema = schema
        return copy
    }

    /// The request's `search_path` as PostgREST spells it: the request's schema, then
    /// the extra ones, each a quoted identifier (`"public", "public", "extensions"`).
    var searchPath: String? {
        schema.map { schema in ([schema] + extraSearchPath).map(SQL.quoteIdentifier).joined(separator: ", ") }
    }

    /// PostgREST sets `search_path` first, so a role's own `search_path` (among its
    /// settings, set after it) wins, as it does behind PostgREST.
    private var searchPathSetting: [SQL] {
        searchPath.map { ["set_config('search_path', \($0), true)"] } ?? []
    }

    /// No one's claims (computing "a row no persona owns").
    static let nobody = PersonaRequest(role: "anon", claimsJSON: #"{"role":"anon"}"#, headersJSON: "{}")

    /// The request settings without the role switch (the admin keeps its role).
    var requestSettings: [SQL] {
        [
            "set_config('request.jwt.claims', \(claimsJSON), true)",
            "set_config('request.method', \(method), true)",
            "set_config('request.path', \(path), true)",
            "set_config('request.headers', \(headersJSON), true)",
            "set_config('request.cookies', \(cookiesJSON), true)",
        ]
    }

    /// The role's settings, then the role: PostgREST's order (settings first, so a
    /// `GRANT SET ON PARAMETER` to the authenticator suffices).
    var roleSwitch: [SQL] {
        searchPathSetting + Self.setLocally(roleSettings) + ["set_config('role', \(role), true)"]
    }

    /// `set_config(name, value, true)` for each setting: for the transaction (or
    /// savepoint) only, as PostgREST sets them.
    private static func setLocally(_ settings: [(name: String, value: String)]) -> [SQL] {
        settings.map { "set_config(\($0.name), \($0.value), true)" }
    }

    /// The settings that decide how values print as text (`TimeZone` for a
    /// `timestamptz`, `DateStyle`, `IntervalStyle`, ...). Any user may set them.
    static let printSettingNames: Set<String> = [
        "timezone", "datestyle", "intervalstyle", "extra_float_digits", "bytea_output", "lc_monetary", "xmlbinary",
        "xmloption",
    ]

    /// The role's settings the truth mirrors: those among `printSettingNames` (e.g.
    /// `alter role authenticated set timezone = 'Europe/Paris'`) and its own
    /// `search_path` (which decides what a name in a function body refers to), as the
    /// persona's requests have them.
    var mirroredRoleSettings: [(name: String, value: String)] {
        roleSettings.filter { Self.printSettingNames.contains($0.name.lowercased()) || $0.name.lowercased() == "search_path" }
    }

    /// What the admin sets to compute what is true for this persona (`RelationTruth`):
    /// the request's `search_path` and the role's mirrored settings, so the rows' text
    /// compares with what the persona reads, names resolve as for the persona, and a
    /// sample value reads back as the persona writes it, then the request settings. The
    /// admin keeps its role, and its timeouts.
    var truthSettings: [SQL] {
        searchPathSetting + Self.setLocally(mirroredRoleSettings) + requestSettings
    }

    /// Whether values print, and names resolve, alike for both personas (the same
    /// `search_path` and `mirroredRoleSettings`).
    func sharesTruthSettings(_ other: PersonaRequest) -> Bool {
        func spelled(_ request: PersonaRequest) -> [String] {
            [request.searchPath ?? ""] + request.mirroredRoleSettings.map { "\($0.name.lowercased())=\($0.value)" }
        }
        return spelled(self) == spelled(other)
    }

    static func select(_ parts: [SQL]) -> SQL {
        var sql: SQL = "select "
        sql.append(SQL.joined(parts, separator: ", "))
        return sql
    }
}
