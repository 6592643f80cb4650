import WardenPostgres

/// Acts as a persona exactly as PostgREST does for a Supabase client, inside the
/// current transaction: `set local role <role>` and the transaction-local
/// `request.jwt.claims` setting that `auth.uid()` and friends read.
struct Impersonation {
    let connection: Connection

    /// The JWT claims PostgREST would set for a persona (user id when signed in).
    static func claims(for persona: Persona, userID: String?) -> String {
        var fields = ["\"role\":\(JSONText.quote(persona.role))"]
        if let userID, let user = persona.user {
            fields += [
                "\"sub\":\(JSONText.quote(userID))",
                "\"email\":\(JSONText.quote(user.email))",
                "\"aud\":\"authenticated\"",
                "\"app_metadata\":\(user.appMetadataJSON)",
                "\"user_metadata\":\(user.metadataJSON)",
                "\"is_anonymous\":\(user.isAnonymous)",
            ]
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Sets the claims only (the admin keeps its role): for computing what a persona owns.
    func setClaims(_ claims: String) throws {
        try connection.query("select set_config('request.jwt.claims', $1, true)", [claims])
    }

    /// Runs `body` as the persona inside a savepoint that is always rolled back, so
    /// the probe leaves nothing behind; `adminFirst` runs as the admin before the switch.
    func probe<T>(role: String, claims: String, adminFirst: String? = nil, _ body: () throws -> T) throws -> T {
        // One round trip for the whole preamble: savepoint, claims, admin SQL, role.
        var preamble = "savepoint probe; select set_config('request.jwt.claims', \(Self.dollarQuoted(claims)), true);"
        if let adminFirst { preamble += "\n\(adminFirst);\n" }
        preamble += " set local role \(quoteIdentifier(role))"
        do {
            try connection.execute(preamble)
        } catch {
            _ = try? connection.execute("rollback to savepoint probe; release savepoint probe")
            throw error
        }
        defer { _ = try? connection.execute("rollback to savepoint probe; release savepoint probe") }
        return try body()
    }

    /// A dollar-quoted literal whose tag cannot occur in the text.
    static func dollarQuoted(_ text: String) -> String {
        var tag = "pgwarden"
        while text.contains("$\(tag)$") { tag += "_" }
        return "$\(tag)$\(text)$\(tag)$"
    }

    /// Returns to the admin role inside a probe (for verification queries).
    func becomeAdmin() throws {
        try connection.execute("reset role")
    }
}
