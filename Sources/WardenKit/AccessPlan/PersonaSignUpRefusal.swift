/// A signed-in persona the database would not sign up: inserting its `auth.users` row
/// failed (most often the project's sign-up trigger needs user metadata the persona
/// lacks). A run without a plan leaves such a persona out and says so.
public struct PersonaSignUpRefusal: Sendable, Equatable, Codable {
    /// The persona's name (`ava`).
    public var persona: String
    /// Its account's email.
    public var email: String
    /// The trigger that refused the row, as `trigger on_auth_user_created
    /// (public.handle_new_user())`; nil when the error did not come from a trigger.
    public var trigger: String?
    /// The server's SQLSTATE (`23502`).
    public var sqlState: String?
    /// The server's message.
    public var message: String
    /// The server's detail, if any.
    public var detail: String?
    /// The `raw_user_meta_data` the row had, as JSON text.
    public var metadataJSON: String
    /// The `raw_user_meta_data` keys the refusing trigger's function reads (`firstName`).
    public var metadataKeys: [String]
    /// A JSON value for some of `metadataKeys` that the trigger would take (`true` for a
    /// key it tests is a boolean); the hint says `"value"` for the others.
    public var metadataValues: [String: String] = [:]
    /// Whether the refusing trigger's function reads the user's metadata at all; false
    /// for one that admits only e-mails another table lists (an invitation), which no
    /// metadata gets past; nil when no trigger refused.
    public var triggerReadsMetadata: Bool?

    public init(persona: String, email: String, trigger: String?, sqlState: String?, message: String,
                detail: String?, metadataJSON: String, metadataKeys: [String] = []) {
        self.metadataKeys = metadataKeys
        self.persona = persona
        self.email = email
        self.trigger = trigger
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.metadataJSON = metadataJSON
    }

    /// One line per refusal, and a hint: which personas were left out and why.
    /// Refusals with the same trigger, SQLSTATE and message share a line. A trigger that
    /// fails with a class 42 error (`record "new" has no field "user_id"`) fails for every
    /// user, so metadata is not offered as the way out (supabase/auth#541: a failing trigger
    /// on auth.users makes the sign-up fail, "Database error saving new user").
    public static func lines(_ refusals: [PersonaSignUpRefusal]) -> [String] {
        guard !refusals.isEmpty else { return [] }
        var groups: [(key: String, refusals: [PersonaSignUpRefusal])] = []
        for refusal in refusals {
            let key = "\(refusal.trigger ?? "")\u{0}\(refusal.sqlState ?? "")\u{0}\(refusal.message)"
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].refusals.append(refusal)
            } else {
                groups.append((key, [refusal]))
            }
        }
        let names = refusals.map(\.persona)
        var lines = ["LEFT OUT \(names.joined(separator: ", ")): not observed; the database refused to sign "
            + "\(names.count == 1 ? "this persona" : "these personas") up"]
        for group in groups {
            let first = group.refusals[0]
            let who = group.refusals.map { "\($0.persona) (\($0.email))" }.joined(separator: ", ")
            let by = first.trigger.map { "the sign-up \($0) on auth.users refused" } ?? "inserting into auth.users failed for"
            let metadata = Set(group.refusals.map(\.metadataJSON)).sorted().joined(separator: " / ")
            lines.append("  \(by) the auth.users row of \(who): \(first.sqlState.map { "\($0) " } ?? "")\(first.message)"
                + (group.refusals.count == 1 ? first.detail.map { " (\($0))" } ?? "" : "")
                + "; raw_user_meta_data was \(metadata)")
        }
        let broken = refusals.filter { $0.trigger != nil && failsWhateverTheMetadata($0.sqlState) }
        if let first = broken.first {
            lines.append("  hint: " + brokenTriggerAdvice(sqlState: first.sqlState))
        }
        // Each persona its own values (the persona's name where the trigger takes any
        // text): one value for both, written into a unique column, refused the second
        // (23505), and the hint said so only after the user had followed it.
        let keys = Array(Set(refusals.flatMap(\.metadataKeys))).sorted()
        let flags = ["ava", "ben"].map { "--user-metadata '\($0)=\(metadata(for: $0, keys: keys, refusals))'" }.joined(separator: " ")
        if refusals.contains(where: { $0.sqlState == "23505" && $0.metadataJSON != "{}" }) {
            lines.append("  hint: the personas were given the same metadata, and the trigger writes it into a unique column: "
                + "give each its own, \(flags)")
        } else if broken.isEmpty, refusals.allSatisfy({ $0.triggerReadsMetadata == false }) {
            // (An invitation-only sign-up, round thirty-seven: the metadata hint could not help.)
            let emails = refusals.map(\.email).joined(separator: ", ")
            lines.append("  hint: the trigger reads no user metadata, so none gets the personas past it; where it admits only "
                + "e-mails another table lists (invitations, an allow-list), put theirs (\(emails)) there in a seed file "
                + "(supabase/seed.sql runs before the personas sign up; a plan's setup runs after), or write a plan whose "
                + "personas have e-mails it admits (personas: ava: { role: authenticated, email: ... })")
        } else if broken.count < refusals.count {
            lines.append("  hint: give the personas the user metadata the trigger needs, each its own: \(flags) "
                + "(or one JSON object for both), or write a plan whose personas have metadata: "
                + "(pgwarden plan draft --user-metadata ... --output <plan file>)")
        }
        return lines
    }

    /// A JSON object for `persona` with `keys` (the keys the trigger reads, where its
    /// body names them; else `key`): the value the trigger would take where known
    /// (`true` for a key it tests is a boolean), made the persona's own where it is a
    /// text (its name), an e-mail or a uuid.
    static func metadata(for persona: String, keys: [String], _ refusals: [PersonaSignUpRefusal]) -> String {
        "{" + (keys.isEmpty ? ["key"] : keys).map { key in
            let value = refusals.lazy.compactMap { $0.metadataValues[key] }.first ?? SignUpTriggers.anyText
            let own = switch value {
            case SignUpTriggers.anyText: JSONText.quote(persona)
            case SignUpTriggers.anEmail: JSONText.quote("\(persona)@example.com")
            case SignUpTriggers.aUUID where persona != "ava": JSONText.quote("00000000-0000-4000-8000-000000000002")
            default: value
            }
            return "\(JSONText.quote(key)): \(own)"
        }.joined(separator: ", ") + "}"
    }

    /// Whether a sign-up trigger's error fails every sign-up, whatever the user's
    /// metadata: class 42 (an undefined column, function or table, a mistyped statement).
    static func failsWhateverTheMetadata(_ sqlState: String?) -> Bool { sqlState?.hasPrefix("42") == true }

    /// What to say of such a trigger.
    static func brokenTriggerAdvice(sqlState: String?) -> String {
        "the trigger fails whatever the user's metadata (SQLSTATE \(sqlState ?? "42")): on Supabase every "
            + "sign-up fails the same way (Supabase Auth answers 500 \"Database error saving new user\"); fix the trigger's function"
    }
}
