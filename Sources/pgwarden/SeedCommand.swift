import ArgumentParser
import Foundation
import WardenPostgres
import WardenKit

/// `pgwarden seed`: load the demo data.
struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Apply the seed files (seeds/*.sql) in name order, in one transaction."
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var seeds: SeedsOptions

    func run() throws {
        try ErrorReporter.run {
            let connection = try Connection(database.settings())
            let applied = try Seeder(folder: URL(fileURLWithPath: seeds.folder)).apply(connection)
            print("seeded \(applied.count) file\(applied.count == 1 ? "" : "s") from \(seeds.folder)")
        }
    }
}
