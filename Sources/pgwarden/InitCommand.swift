import ArgumentParser
import Foundation
import PgwardenExamples
import WardenKit

/// `pgwarden init [DIR] [--example NAME]`: write a project that passes `pgwarden dev`.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a project folder (migrations, seeds, access plan) that passes `pgwarden dev` at once.",
        discussion: """
            The files come from inside pgwarden: electric-ride (used-car listings), todo \
            (anonymous sign-in, owner-only items), profiles (social sign-in profiles, a \
            sign-up trigger and an RPC) or empty (no tables yet). DIR is created when \
            missing. When any file to be written already exists, init names it and writes \
            nothing (exit status 65).
            """)

    enum Example: String, ExpressibleByArgument, CaseIterable {
        case electricRide = "electric-ride", todo, profiles, empty
    }

    @Argument(help: ArgumentHelp("The project folder (default: the current folder).", valueName: "DIR"),
              completion: .directory)
    var directory = "."

    @Option(help: "What to start from: electric-ride, todo, profiles or empty.")
    var example: Example = .empty

    func run() throws {
        try ErrorReporter.run {
            guard let project = ProjectExample(rawValue: example.rawValue) else { throw ExitStatus.usage }
            let folder = URL(fileURLWithPath: directory)
            let written = try ProjectInitializer(example: project, folder: folder).write()
            for path in written { print("created \(directory == "." ? path : "\(directory)/\(path)")") }
            let change = directory == "." ? "" : "cd \(directory) && "
            print("next: \(change)pgwarden dev")
        }
    }
}
