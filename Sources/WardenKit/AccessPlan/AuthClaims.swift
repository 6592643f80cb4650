import Foundation

/// The JWT claims Supabase's servers issue, as the database receives them in
/// `request.jwt.claims` (facts and sources: docs/supabase-twin.md, "Tokens").
///
/// Signed-in personas get what Supabase Auth v2.196.0's `GenerateAccessToken`
/// (`internal/tokens/service.go`) puts in an access token; anon and service_role
/// get the claims of the project's API keys.
enum AuthClaims {
    /// The issuer of a local Supabase CLI stack's auth server (`auth.jwt_issuer`
    /// default: the API URL + `/auth/v1`).
    static let issuer = "http://127.0.0.1:54321/auth/v1"
    /// Supabase Auth's default access-token lifetime (`GOTRUE_JWT_EXP`, 3600 s).
    static let lifetime = 3600
    /// The lifetime of a project's API keys (issued at project creation, ten years).
    static let apiKeyLifetime = 315_360_000

    /// What a persona's sign-in is made of.
    struct SignIn {
        var userID: String
        var sessionID: String
        /// Seconds since 1970 when the token was issued (the database's `now()`).
        var issuedAt: Int
        /// `amr` entries, most recent first: (method, timestamp).
        var methods: [(method: String, at: Int)]
    }

    /// The access token's claims for a signed-in persona, before any hook.
    static func signedIn(_ persona: Persona, user: PlanUser, _ signIn: SignIn) -> [String: Any] {
        let expires = signIn.issuedAt + lifetime
        return [
            "iss": issuer,
            "sub": signIn.userID,
            "aud": "authenticated",
            "exp": expires,
            "iat": signIn.issuedAt,
            "email": user.email,
            "phone": "",
            "app_metadata": JSONText.decode(user.appMetadataJSON),
            "user_metadata": JSONText.decode(user.metadataJSON),
            "role": persona.role,
            "aal": persona.token.aal,
            "amr": signIn.methods.map { ["method": $0.method, "timestamp": $0.at] as [String: Any] },
            "session_id": signIn.sessionID,
            "is_anonymous": user.isAnonymous,
        ]
    }

    /// The claims of the project's API key for `role` (anon or service_role): hosted
    /// projects' keys carry `iss: supabase`, `ref`, `role`, `iat`, `exp`; `ref` (the
    /// project's id) is unknown locally and can be added with the persona's `claims`.
    static func apiKey(role: String, issuedAt: Int) -> [String: Any] {
        ["iss": "supabase", "role": role, "iat": issuedAt, "exp": issuedAt + apiKeyLifetime]
    }

    /// The first factor's `amr` method for a user (Supabase Auth's AuthenticationMethod names).
    static func signInMethod(_ persona: Persona, user: PlanUser) -> String {
        if let method = persona.token.signInMethod { return method }
        if user.isAnonymous { return "anonymous" }
        return user.provider == "email" ? "password" : "oauth"
    }

    /// An expired token: issued a lifetime and a minute ago, so `exp` passed a minute ago.
    static func shiftedForExpiry(_ claims: [String: Any], by seconds: Int) -> [String: Any] {
        var claims = claims
        for key in ["iat", "exp"] {
            if let value = claims[key] as? Int { claims[key] = value - seconds }
        }
        return claims
    }

    /// Claims with the plan's extra claims merged over them (a key given there wins).
    static func merged(_ claims: [String: Any], extraJSON: String?) -> [String: Any] {
        guard let extraJSON, let extra = JSONText.decode(extraJSON) as? [String: Any] else { return claims }
        return claims.merging(extra) { _, new in new }
    }
}
