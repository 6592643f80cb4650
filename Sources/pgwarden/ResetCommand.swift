import ArgumentParser
import Foundation
import WardenKit

/// `pgwarden reset`: down all, up, seed.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Roll back every migration, apply them all again, and seed. Destroys data: needs --yes.",
        discussion: """
            Every table the migrations created is dropped with its rows, then recreated and \
            seeded. Refuses without --yes (exit 64), before connecting.
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var migrations: MigrationsOptions
    @OptionGroup var seeds: SeedsOptions

    @Flag(help: "Confirm that the data in this database may be destroyed.")
    var yes = false

    func validate() throws {
        guard yes else {
            throw ValidationError("reset drops every table the migrations created, with its data; run again with --yes to confirm")
        }
    }

    func run() throws {
        try ErrorReporter.run {
            let layout = try migrations.project.layout(
                migrations: migrations.folder, seeds: seeds.folder, allGiven: migrations.folder != nil && seeds.folder != nil)
            let steps = ProjectSteps(project: layout.project, settings: try database.settings(),
                                     progress: MigrationProgress.standard())
            try steps.reset()
        }
    }
}
