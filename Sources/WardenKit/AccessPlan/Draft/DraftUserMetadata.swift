/// User metadata (`raw_user_meta_data`) for the drafted signed-in personas (ava and
/// ben), for a sign-up trigger that needs some: what `--user-metadata` gives to
/// `plan draft`, and to `dev`, `test` and `lint` when there is no plan.
///
/// Each entry is a JSON object for both personas, or `ava=<object>` / `ben=<object>`
/// for one; a later entry wins.
public struct DraftUserMetadata: Sendable, Equatable {
    /// Persona name -> its metadata, as JSON object text.
    public let byPersona: [String: String]

    /// No metadata: the personas sign up with `{}`, as a client that passes no `data`.
    public static let none = DraftUserMetadata(byPersona: [:])

    private init(byPersona: [String: String]) { self.byPersona = byPersona }

    /// Reads the entries.
    /// - Throws: `AccessPlanError` (file `--user-metadata`) for an entry that is not a
    ///   JSON object, or that names a persona other than ava or ben.
    public init(_ entries: [String]) throws {
        let names = PlanDrafter.names
        var byPersona: [String: String] = [:]
        for entry in entries {
            var targets = names
            var json = entry
            if let equals = entry.firstIndex(of: "="), !entry.hasPrefix("{") {
                let name = String(entry[..<equals])
                guard names.contains(name) else {
                    throw AccessPlanError(
                        file: "--user-metadata", line: nil,
                        message: "'\(name)' is not a drafted signed-in persona (\(names.joined(separator: ", ")))")
                }
                targets = [name]
                json = String(entry[entry.index(after: equals)...])
            }
            guard let object = JSONText.object(json) else {
                throw AccessPlanError(
                    file: "--user-metadata", line: nil,
                    message: "'\(entry)' is not a JSON object such as {\"handle\": \"ava\"} (or ava={...} for one persona)")
            }
            for name in targets { byPersona[name] = JSONText.encode(object) }
        }
        self.byPersona = byPersona
    }
}
