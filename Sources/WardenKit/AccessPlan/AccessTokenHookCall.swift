import Foundation
import WardenPostgres

/// Calls a project's custom access token hook as Supabase Auth v2.196.0 does
/// (`internal/hooks/hookspgfunc/hookspgfunc.go`, `internal/tokens/service.go`): as
/// `supabase_auth_admin`, in the sign-in's transaction, with `statement_timeout` 2 s,
/// `select "<schema>"."<function>"(<event>)` where the event is
/// `{user_id, claims, authentication_method}`; the returned `claims` become the token.
/// An `error` object in the response, a missing or malformed `claims`, or claims
/// without the required ones fail the sign-in with the hook's message.
struct AccessTokenHookCall {
    let connection: Connection
    let hook: AccessTokenHook
    /// The `role` setting to return to afterwards (the admin's).
    let adminRoleSetting: String

    /// The role the auth server connects as, which runs the hook.
    static let authRole = "supabase_auth_admin"

    /// The claims the auth server's MinimumViableTokenSchema requires of the output.
    static let requiredClaims = ["aud", "exp", "iat", "sub", "email", "phone", "role", "aal", "session_id", "is_anonymous"]

    enum Failure: Error {
        /// The sign-in fails with this message (the hook's error, or its bad output).
        case rejected(String)
        /// The runner cannot act as supabase_auth_admin (not a persona's fault).
        case cannotBecomeAuthAdmin(String)
    }

    /// The hook's claims for one sign-in, or a `Failure`.
    func call(userID: String, claims: [String: Any], authenticationMethod: String) throws -> [String: Any] {
        let event: [String: Any] = ["user_id": userID, "claims": claims, "authentication_method": authenticationMethod]
        let response: String?
        do {
            response = try connection.savepoint {
                do {
                    try becomeAuthAdmin()
                } catch let error as PGError {
                    throw Failure.cannotBecomeAuthAdmin(Self.describe(error))
                }
                // The run's own limit comes back after the call (a released savepoint keeps SET LOCAL).
                let previous = try connection.query("select current_setting('statement_timeout')").scalar ?? "0"
                try connection.query("set local statement_timeout to '2000'")
                let value = try connection.query(
                    "select \(identifier: hook.schema, hook.function)(\(JSONText.encode(event))::jsonb)::text").scalar
                try connection.query("select set_config('statement_timeout', \(previous), true)")
                try connection.query("select set_config('role', \(adminRoleSetting), true)")
                return value
            }
        } catch let error as PGError {
            throw Failure.rejected(Self.describe(error))
        }
        return try Self.claims(in: response)
    }

    private static func describe(_ error: PGError) -> String {
        "\(error.sqlState?.rawValue ?? "?????") \(error.message)"
    }

    /// Becomes supabase_auth_admin: directly when the admin may; otherwise, on
    /// PostgreSQL 15 where CREATEROLE may grant it, by a membership granted inside the
    /// run's transaction (rolled back with it).
    private func becomeAuthAdmin() throws {
        let may = try connection.query(
            "select pg_catalog.pg_has_role(current_user, \(Self.authRole), 'member')").scalar == "t"
        if !may {
            try connection.query("grant \(identifier: Self.authRole) to current_user")
        }
        try connection.query("select set_config('role', \(Self.authRole), true)")
    }

    /// Reads the response as the auth server does (hookserrors.Check, CustomAccessTokenOutput,
    /// validateTokenClaims).
    static func claims(in response: String?) throws -> [String: Any] {
        guard let response, let object = JSONText.decode(response) as? [String: Any], !(response.isEmpty) else {
            throw Failure.rejected("the hook returned no JSON object")
        }
        if let error = object["error"] as? [String: Any], let message = error["message"] as? String, !message.isEmpty {
            let code = (error["http_code"] as? Int).map { " (HTTP \($0))" } ?? ""
            throw Failure.rejected("the hook returned an error\(code): \(message)")
        }
        guard object["claims"] != nil else { throw Failure.rejected("output claims field is missing") }
        guard let claims = object["claims"] as? [String: Any] else {
            throw Failure.rejected("output claims field is not a JSON object")
        }
        let missing = requiredClaims.filter { claims[$0] == nil }
        guard missing.isEmpty else {
            throw Failure.rejected("output claims do not conform to the expected schema: \(missing.map { "\($0) is required" }.joined(separator: ", "))")
        }
        return claims
    }
}
