import ArgumentParser
import Foundation
import WardenKit

/// `--project DIR`: the project's root folder (default: the working directory), where
/// the layout is found (a Supabase CLI project's `supabase/`, or pgwarden's own).
struct ProjectOptions: ParsableArguments {
    @Option(
        name: .customLong("project"),
        help: ArgumentHelp(
            "The project folder (default: the working directory). A folder with supabase/config.toml or "
                + "supabase/migrations is a Supabase CLI project.",
            valueName: "DIR"),
        completion: .directory)
    var directory: String?

    /// The project's layout with the flags a user gave applied (flags win). Prints one
    /// line naming the layout and its folders to standard error (standard output stays
    /// the command's own) when a layout was found: a Supabase CLI project whose paths
    /// are not all given by flags, or any project named by --project. pgwarden's own
    /// layout at the working directory prints nothing new, so its output and its
    /// one-line errors stay as they were.
    func layout(migrations: String? = nil, seeds: String? = nil, plan: String? = nil,
                allGiven: Bool = false) throws -> ProjectLayout
    {
        let discovered = try ProjectLayout.discover(in: URL(fileURLWithPath: directory ?? "."))
        let layout = discovered.overriding(migrations: migrations, seeds: seeds, plan: plan)
        if (layout.kind == .supabase && !allGiven) || directory != nil {
            Terminal.note(layout.summary)
            layout.notes.forEach(Terminal.note)
        }
        return layout
    }
}

/// `--seeds DIR`: the folder of seed files.
struct SeedsOptions: ParsableArguments {
    @Option(
        name: .customLong("seeds"),
        help: ArgumentHelp(
            "The folder of seed files (*.sql, applied in name order; default: seeds, or a Supabase project's [db.seed] files).",
            valueName: "DIR"),
        completion: .directory)
    var folder: String?
}

/// `--plan FILE`: the access-plan file.
struct PlanOptions: ParsableArguments {
    static let defaultFile = "access-plan.yml"

    @Option(
        name: .customLong("plan"),
        help: ArgumentHelp(
            "The access-plan file (default: access-plan.yml, or supabase/access-plan.yml in a Supabase project).",
            valueName: "FILE"),
        completion: .file(extensions: ["yml", "yaml"]))
    var file: String?
}
