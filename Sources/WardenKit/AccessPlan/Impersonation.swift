import WardenPostgres

/// Acts as a persona exactly as PostgREST does for a Supabase client, inside the
/// current transaction: the role's own settings, `set local role <role>`, and the
/// transaction-local `request.*` settings (`request.jwt.claims`, which `auth.uid()`
/// and friends read, the method, path, headers and cookies), in one round trip.
struct Impersonation {
    let connection: Connection
    let seal: RunSeal

    /// Sets the request settings only (the admin keeps its role): for computing what a
    /// persona owns, or before a check's admin `before` SQL.
    func setClaims(_ request: PersonaRequest) throws {
        try connection.query(PersonaRequest.select(request.requestSettings))
    }

    /// Switches to the persona's role, with the role's settings, for the rest of the
    /// current transaction or savepoint (`set_config('role', ..., true)` is `SET LOCAL ROLE`).
    func become(_ request: PersonaRequest) throws {
        try connection.query(PersonaRequest.select(request.roleSwitch))
    }

    /// Returns to the admin role inside a probe (for verification queries).
    func becomeAdmin() throws {
        try connection.query(becomeAdminSQL)
    }

    /// The statement `becomeAdmin()` sends, for a pipelined unit.
    var becomeAdminSQL: SQL { "select set_config('role', \(seal.roleSetting), true)" }

    /// Runs `body` as the persona inside a savepoint that is always rolled back, so
    /// the probe leaves nothing behind; `adminFirst` is plan SQL run as the admin (with
    /// the persona's claims) before the switch, sealed statement by statement.
    func probe<T>(_ request: PersonaRequest, adminFirst: (sql: String, origin: String)? = nil,
                  _ body: () throws -> T) throws -> T {
        try connection.rolledBackSavepoint {
            if let adminFirst {
                try setClaims(request)
                try seal.run(adminFirst.sql, origin: adminFirst.origin)
                try become(request)
            } else {
                // One round trip for all of it, as PostgREST sets them.
                try connection.query(PersonaRequest.select(request.roleSwitch + request.requestSettings))
            }
            return try body()
        }
    }
}
