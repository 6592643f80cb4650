import Foundation
import WardenPostgres

/// Signs a persona's user in as Supabase Auth does (`IssueRefreshToken`,
/// `internal/tokens/service.go` of v2.196.0): an `auth.sessions` row (aal1, or aal2
/// with the verified TOTP factor it was raised by), its `auth.mfa_amr_claims` (one
/// per method), and `auth.users.last_sign_in_at`. Where the database lacks those
/// tables, the session id is still issued, with no row behind it.
enum PersonaSignIn {
    /// Which of Supabase Auth's session tables the database has.
    struct Tables {
        var sessions = false, amrClaims = false, factors = false, lastSignIn = false

        /// The query that finds them (one row of four booleans).
        static let query: SQL = """
            select to_regclass('auth.sessions') is not null, to_regclass('auth.mfa_amr_claims') is not null,
                   to_regclass('auth.mfa_factors') is not null,
                   exists (select from pg_catalog.pg_attribute where attrelid = to_regclass('auth.users')
                           and attname = 'last_sign_in_at' and not attisdropped)
            """

        /// The tables `result`, a result of `query`, says exist.
        init(_ result: QueryResult) {
            let row = result.rows.first ?? []
            let flag = { (index: Int) in index < row.count && row[index] == "t" }
            self.init(sessions: flag(0), amrClaims: flag(1), factors: flag(2), lastSignIn: flag(3))
        }

        init(sessions: Bool = false, amrClaims: Bool = false, factors: Bool = false, lastSignIn: Bool = false) {
            (self.sessions, self.amrClaims, self.factors, self.lastSignIn) = (sessions, amrClaims, factors, lastSignIn)
        }
    }

    /// What a sign-in writes (`rows`: one pipelined unit, so the first error stops the
    /// rest of it, as when they were sent one by one) and what the token is made of.
    struct Prepared {
        var rows: [SQL]
        var signIn: AuthClaims.SignIn
    }

    /// The sign-in's rows and claims. `now` is the database's clock (seconds); an
    /// expired persona signed in a lifetime ago. Where the database lacks the session
    /// tables, the session id is still issued, with no row behind it.
    static func prepare(_ persona: Persona, user: PlanUser, userID: String, now: Int, tables: Tables) -> Prepared {
        let issuedAt = persona.token.expired ? now - AuthClaims.lifetime - 60 : now
        var methods = [(method: AuthClaims.signInMethod(persona, user: user), at: issuedAt - 1)]
        if persona.token.aal == "aal2" { methods.insert(("totp", issuedAt), at: 0) }
        let sessionID = UUID().uuidString.lowercased()
        let signIn = AuthClaims.SignIn(userID: userID, sessionID: sessionID, issuedAt: issuedAt, methods: methods)
        guard tables.sessions else { return Prepared(rows: [], signIn: signIn) }
        var statements: [SQL] = []
        var factorID: String?
        if persona.token.aal == "aal2", tables.factors {
            let factor = UUID().uuidString.lowercased()
            factorID = factor
            statements.append(
                """
                insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at)
                values (\(factor), \(userID), 'pgwarden totp', 'totp', 'verified',
                        to_timestamp(\(String(issuedAt - 86_400))::float8), to_timestamp(\(String(issuedAt - 86_400))::float8))
                """)
        }
        statements.append(
            """
            insert into auth.sessions (id, user_id, created_at, updated_at, aal, factor_id)
            values (\(sessionID), \(userID), to_timestamp(\(String(issuedAt - 1))::float8),
                    to_timestamp(\(String(issuedAt))::float8), \(persona.token.aal), \(factorID))
            """)
        if tables.amrClaims {
            for entry in methods {
                statements.append(
                    """
                    insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
                    values (\(UUID().uuidString.lowercased()), \(sessionID), to_timestamp(\(String(entry.at))::float8),
                            to_timestamp(\(String(entry.at))::float8), \(entry.method))
                    """)
            }
        }
        if tables.lastSignIn {
            statements.append(
                "update auth.users set last_sign_in_at = to_timestamp(\(String(issuedAt - 1))::float8) where id = \(userID)")
        }
        return Prepared(rows: statements, signIn: signIn)
    }
}
