import Yams

/// Reads the account of a signed-in persona from its plan fields: `email`,
/// `anonymous`, `provider`, `metadata` and `app_metadata`.
///
/// What Supabase Auth stores, and pgwarden therefore creates:
/// - an email sign-up: `raw_app_meta_data` `{"provider":"email","providers":["email"]}`;
/// - a social sign-in (`provider: apple|google|kakao|...`): the same keys with that
///   provider (https://supabase.com/docs/guides/auth/identities);
/// - an anonymous sign-in (`anonymous: true`): no email, `is_anonymous` true, provider
///   `anonymous` (Supabase Auth's SignupAnonymously sets `params.Provider = "anonymous"`),
///   role `authenticated` and the JWT claim `is_anonymous: true`
///   (https://supabase.com/docs/guides/auth/auth-anonymous).
/// `app_metadata` keys are merged over `provider`/`providers` (a key given there wins).
struct PlanUserReader {
    let reader: YAMLNodeReader

    /// The persona fields this reader understands (besides `role`).
    static let keys = ["email", "anonymous", "provider", "metadata", "app_metadata"]

    /// The persona's account, or nil for a persona without one (anon, service_role).
    func user(persona name: String, role: String, keyNode: Node, field: (String) -> Node?) throws -> PlanUser? {
        let email = try field("email").map { try reader.string($0, "email") }
        let anonymous = try field("anonymous").map { try flag($0, "anonymous of persona '\(name)'") } ?? false
        let providerNode = field("provider")
        if anonymous {
            guard role == "authenticated" else {
                throw reader.fail(field("anonymous"), "persona '\(name)' is anonymous, so its role must be authenticated (anonymous sign-ins use that role)")
            }
            if email != nil { throw reader.fail(field("email"), "persona '\(name)' is anonymous and cannot have an email") }
            if let providerNode { throw reader.fail(providerNode, "persona '\(name)' is anonymous and cannot have a provider") }
        } else if email == nil {
            if role == "authenticated" {
                throw reader.fail(keyNode, "persona '\(name)' is signed in (role authenticated) and needs an email (or anonymous: true)")
            }
            for key in ["provider", "metadata", "app_metadata"] {
                if let node = field(key) { throw reader.fail(node, "persona '\(name)' has no account (no email), so '\(key)' has no meaning") }
            }
            return nil
        }
        let provider = anonymous ? "anonymous" : try providerNode.map { try providerName($0) } ?? "email"
        return PlanUser(
            email: email ?? "",
            metadataJSON: try field("metadata").map { try object($0, "metadata of persona '\(name)'") } ?? "{}",
            appMetadataJSON: try appMetadata(provider: provider, extra: field("app_metadata"), persona: name),
            isAnonymous: anonymous, provider: provider)
    }

    private func flag(_ node: Node, _ what: String) throws -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain, let value = node.bool else {
            throw reader.fail(node, "\(what) must be true or false")
        }
        return value
    }

    private func providerName(_ node: Node) throws -> String {
        let name = try reader.string(node, "provider")
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }) else {
            throw reader.fail(node, "provider '\(name)' must be a provider name such as email, apple, google or kakao")
        }
        guard name != "anonymous" else { throw reader.fail(node, "write 'anonymous: true' for an anonymous sign-in, not a provider") }
        return name
    }

    private func object(_ node: Node, _ what: String) throws -> String {
        guard case .mapping = node else { throw reader.fail(node, "\(what) must be a mapping") }
        return try reader.json(node)
    }

    /// `{"provider": p, "providers": [p]}` with the plan's keys merged over it.
    private func appMetadata(provider: String, extra: Node?, persona: String) throws -> String {
        var pairs: [(key: String, json: String)] = [
            ("provider", JSONText.quote(provider)), ("providers", "[\(JSONText.quote(provider))]"),
        ]
        if let extra {
            guard case .mapping = extra else { throw reader.fail(extra, "app_metadata of persona '\(persona)' must be a mapping") }
            for entry in try reader.mapping(extra, "app_metadata") {
                let value = try reader.json(entry.value)
                if let index = pairs.firstIndex(where: { $0.key == entry.key }) {
                    pairs[index].json = value
                } else {
                    pairs.append((entry.key, value))
                }
            }
        }
        return "{" + pairs.map { "\(JSONText.quote($0.key)):\($0.json)" }.joined(separator: ",") + "}"
    }
}
