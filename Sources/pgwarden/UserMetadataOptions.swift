import ArgumentParser
import WardenKit

/// `--user-metadata JSON`: `raw_user_meta_data` for the drafted signed-in personas (ava
/// and ben), for a sign-up trigger that needs some. Checked before anything starts.
struct UserMetadataOptions: ParsableArguments {
    @Option(
        name: .customLong("user-metadata"),
        help: ArgumentHelp(
            "User metadata (raw_user_meta_data) for the drafted signed-in personas ava and ben, for a sign-up trigger "
                + "that needs some: a JSON object for both, or ava=JSON / ben=JSON for one (repeatable; default: "
                + "the keys the trigger reads, each persona its own value, said in a NOTE). "
                + "Without a plan only; a plan's personas use their metadata:.",
            valueName: "JSON"))
    var entries: [String] = []

    func validate() throws { try Self.check(entries) }

    /// A usage error (exit 64, before anything starts) for an entry that is not a JSON
    /// object or names another persona than ava or ben.
    static func check(_ entries: [String]) throws {
        do {
            _ = try DraftUserMetadata(entries)
        } catch let error as AccessPlanError {
            throw ValidationError("--user-metadata: \(error.message)")
        }
    }

    /// The metadata, read (`validate()` has checked it).
    var metadata: DraftUserMetadata { (try? DraftUserMetadata(entries)) ?? .none }

    /// A note for a run that has a plan: the option does not apply to its personas.
    func noteIfPlanned() {
        guard !entries.isEmpty else { return }
        Terminal.note("--user-metadata gives metadata to the drafted personas of a run without a plan; "
            + "this run has a plan, whose personas use their own metadata:")
    }
}
