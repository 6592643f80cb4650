import WardenPostgres

/// User metadata pgwarden gave the drafted signed-in personas (ava, ben) because the
/// project's sign-up trigger refused them without it, where the user gave none: the keys
/// the trigger's function reads, each persona its own value (its name where any text
/// does), as the LEFT OUT hint told the user to pass. A project whose `handle_new_user`
/// copies `first_name` into a NOT NULL column was observed as anon and service_role
/// only, and did not pass, until the user found the flag (an HR app, round forty-one);
/// a Supabase project must work from its root with no flags. It is said in a NOTE, and
/// a drafted plan's personas carry it (`metadata:`).
public struct SignUpMetadataGuess: Sendable, Equatable, Codable {
    /// Persona name -> the metadata it signed up with, as JSON object text.
    public var byPersona: [String: String]
    /// How the database refused the personas without it.
    public var refusals: [PersonaSignUpRefusal]

    /// The metadata to try after `refusals`: where each came from a trigger that reads
    /// metadata (`raw_user_meta_data ->> 'first_name'`), for keys its body names, on a
    /// sign-up that had none, and not with an error every sign-up meets (class 42); else nil.
    static func after(_ refusals: [PersonaSignUpRefusal]) -> SignUpMetadataGuess? {
        let keys = Array(Set(refusals.flatMap(\.metadataKeys))).sorted()
        guard !refusals.isEmpty, !keys.isEmpty, refusals.allSatisfy({ refusal in
            refusal.trigger != nil && refusal.triggerReadsMetadata != false && refusal.metadataJSON == "{}"
                && !PersonaSignUpRefusal.failsWhateverTheMetadata(refusal.sqlState)
        }) else { return nil }
        let byPersona = Dictionary(uniqueKeysWithValues: refusals.map {
            ($0.persona, PersonaSignUpRefusal.metadata(for: $0.persona, keys: keys, refusals))
        })
        return SignUpMetadataGuess(byPersona: byPersona, refusals: refusals)
    }

    /// `personas` as the database signs them up, in a rolled-back transaction: those it
    /// refuses (`refusals`), and, when `guessing` and metadata made from the refusals
    /// (`after`) gets every refused persona past the trigger, the personas with it and
    /// no refusal. A guess that does not is not used: the refusals say what the user can do.
    static func signUp(_ personas: [Persona], guessing: Bool, on connection: Connection,
                       schemas: [String]) throws -> (personas: [Persona], refusals: [PersonaSignUpRefusal], guess: SignUpMetadataGuess?) {
        let refusals = try PlanDrafter.refusals(of: personas, on: connection, schemas: schemas)
        guard guessing, let guess = after(refusals) else { return (personas, refusals, nil) }
        let given = personas.map { persona in
            var persona = persona
            if let metadata = guess.byPersona[persona.name] { persona.user?.metadataJSON = metadata }
            return persona
        }
        guard try PlanDrafter.refusals(of: given, on: connection, schemas: schemas).isEmpty else { return (personas, refusals, nil) }
        return (given, [], guess)
    }

    /// The NOTE saying which metadata the personas signed up with, and why.
    public var lines: [String] {
        let names = byPersona.keys.sorted()
        let given = names.map { "\($0)=\(byPersona[$0]!)" }.joined(separator: ", ")
        let first = refusals[0]
        let by = first.trigger.map { "the sign-up \($0) on auth.users" } ?? "the database"
        return [
            "NOTE \(names.joined(separator: ", ")) signed up with user_metadata \(given): without it \(by) refused "
                + "\(names.count == 1 ? "it" : "them") (\(first.sqlState.map { "\($0) " } ?? "")\(first.message)); "
                + "give your own with --user-metadata, or write a plan whose personas have metadata:",
        ]
    }
}
