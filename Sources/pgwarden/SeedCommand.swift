import ArgumentParser
import Foundation
import WardenPostgres
import WardenKit

/// `pgwarden seed`: load the demo data.
struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Apply the seed files (seeds/*.sql in name order, or a Supabase project's [db.seed] files) in one transaction."
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var project: ProjectOptions
    @OptionGroup var seeds: SeedsOptions

    func run() throws {
        try ErrorReporter.run {
            let source = try project.layout(seeds: seeds.folder, allGiven: seeds.folder != nil).seeds
            if case .folder(let folder) = source {
                _ = try Seeder(folder: folder).files()  // a seeds folder must exist (as before)
            }
            let checked = try Seeds(source)  // every file read and checked before connecting
            let connection = try database.connect()
            let progress = MigrationProgress.standard()
            defer { progress.stop() }
            checked.notes.forEach(progress.note)
            guard let applied = try checked.apply(on: connection, observer: progress.handle) else {
                print(source == .disabled ? "seeding is disabled in supabase/config.toml; nothing applied"
                                          : "no seed file matches [db.seed] sql_paths; nothing applied")
                return
            }
            print("seeded \(applied.count) file\(applied.count == 1 ? "" : "s") from \(source.shown)")
        }
    }
}
