import Yams

/// Reads the token options of a persona from its plan fields: `aal`, `sign_in`,
/// `expired` and `claims` (docs/access-plan-claims.md).
///
/// - `aal: aal2`: signed in with a second factor (TOTP), as Supabase Auth's MFA
///   verify issues it: `aal` claim `aal2` and an `amr` entry `totp`;
/// - `sign_in: password|otp|magiclink|oauth|sso/saml|web3|passkey`: the first factor's
///   `amr` method (default: `password` for email, `oauth` for another provider,
///   `anonymous` for an anonymous sign-in);
/// - `expired: true`: a token whose `exp` is in the past (PostgREST itself would answer
///   401 to it; this shows what the database does with such claims);
/// - `claims: {...}`: claims merged over the issued token (after the hook).
struct TokenOptionsReader {
    let reader: YAMLNodeReader

    static let keys = ["aal", "sign_in", "expired", "claims"]

    /// The first-factor methods Supabase Auth v2.196.0 records in `amr`
    /// (`internal/models/factor.go`, AuthenticationMethod.String()).
    static let signInMethods = ["password", "otp", "magiclink", "oauth", "sso/saml", "web3", "passkey", "email/signup", "invite", "recovery"]

    func options(persona name: String, hasUser: Bool, field: (String) -> Node?) throws -> TokenOptions {
        var options = TokenOptions()
        if let node = field("aal") {
            let aal = try reader.string(node, "aal")
            guard aal == "aal1" || aal == "aal2" else { throw reader.fail(node, "aal of persona '\(name)' must be aal1 or aal2") }
            guard hasUser else { throw reader.fail(node, "persona '\(name)' has no account, so 'aal' has no meaning (API keys carry no aal)") }
            options.aal = aal
        }
        if let node = field("sign_in") {
            let method = try reader.string(node, "sign_in")
            guard Self.signInMethods.contains(method) else {
                throw reader.fail(node, "sign_in of persona '\(name)' must be one of \(Self.signInMethods.joined(separator: ", "))")
            }
            guard hasUser else { throw reader.fail(node, "persona '\(name)' has no account, so 'sign_in' has no meaning") }
            options.signInMethod = method
        }
        if let node = field("expired") {
            guard case .scalar(let scalar) = node, scalar.style == .plain, let value = node.bool else {
                throw reader.fail(node, "expired of persona '\(name)' must be true or false")
            }
            options.expired = value
        }
        if let node = field("claims") {
            guard case .mapping = node else { throw reader.fail(node, "claims of persona '\(name)' must be a mapping") }
            options.extraClaimsJSON = try reader.json(node)
        }
        return options
    }
}
