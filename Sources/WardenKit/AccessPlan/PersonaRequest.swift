import WardenPostgres

/// Everything PostgREST sets in a request's transaction for one persona (v13.0.7,
/// `src/PostgREST/Query.hs`: role settings, `role`, `request.jwt.claims`,
/// `request.method`, `request.path`, `request.headers`, `request.cookies`), in one
/// `select set_config(...)` statement, as PostgREST sends it.
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

    /// The same persona asking for another route, e.g. `POST /vehicles`.
    func routed(_ method: String, _ path: String) -> PersonaRequest {
        var copy = self
        copy.method = method
        copy.path = path
        return copy
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
        roleSettings.map { "set_config(\($0.name), \($0.value), true)" } + ["set_config('role', \(role), true)"]
    }

    static func select(_ parts: [SQL]) -> SQL {
        var sql: SQL = "select "
        sql.append(SQL.joined(parts, separator: ", "))
        return sql
    }
}
