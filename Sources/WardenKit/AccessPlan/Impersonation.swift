import WardenPostgres

/// Acts as a persona exactly as PostgREST does for a Supabase client, inside the
/// current transaction: `set local role <role>` and the transaction-local
/// `request.jwt.claims` setting that `auth.uid()` and friends read.
struct Impersonation {
    let connection: Connection
    let seal: RunSeal

    /// The JWT claims PostgREST would set for a persona (user id when signed in).
    static func claims(for persona: Persona, userID: String?) -> String {
        var claims: [String: Any] = ["role": persona.role]
        if let userID, let user = persona.user {
            claims["sub"] = userID
            claims["email"] = user.email
            claims["aud"] = "authenticated"
            claims["app_metadata"] = JSONText.decode(user.appMetadataJSON)
            claims["user_metadata"] = JSONText.decode(user.metadataJSON)
            claims["is_anonymous"] = user.isAnonymous
        }
        return JSONText.encode(claims)
    }

    /// Sets the claims only (the admin keeps its role): for computing what a persona owns.
    func setClaims(_ claims: String) throws {
        try connection.query("select set_config('request.jwt.claims', \(claims), true)" as SQL)
    }

    /// Switches to a role for the rest of the current transaction or savepoint, as
    /// PostgREST does (`set_config('role', ..., true)` is `SET LOCAL ROLE`).
    func become(_ role: String) throws {
        try connection.query("select set_config('role', \(role), true)" as SQL)
    }

    /// Returns to the admin role inside a probe (for verification queries).
    func becomeAdmin() throws {
        try become(seal.roleSetting)
    }

    /// Runs `body` as the persona inside a savepoint that is always rolled back, so
    /// the probe leaves nothing behind; `adminFirst` is plan SQL run as the admin (with
    /// the persona's claims) before the switch, sealed statement by statement.
    func probe<T>(role: String, claims: String, adminFirst: (sql: String, origin: String)? = nil,
                  _ body: () throws -> T) throws -> T {
        try connection.rolledBackSavepoint {
            if let adminFirst {
                try setClaims(claims)
                try seal.run(adminFirst.sql, origin: adminFirst.origin)
                try become(role)
            } else {
                // One round trip for both, as PostgREST sets them.
                try connection.query(
                    "select set_config('request.jwt.claims', \(claims), true), set_config('role', \(role), true)" as SQL)
            }
            return try body()
        }
    }
}
