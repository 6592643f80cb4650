import ArgumentParser
import WardenKit

/// `pgwarden new NAME`: create an empty migration file.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create migrations/<UTC YYYYMMDDHHMMSS>_<name>.sql with empty up and down sections.",
        discussion: """
            Prints the new file's path. The name is lowercased and every run of other \
            characters becomes one underscore ("Add listing index" -> add_listing_index). \
            The folder is created when missing. In a Supabase CLI project the file is \
            empty and has no sections, as `supabase migration new` writes it (the Supabase \
            CLI runs a whole file, down section included).
            """)

    @OptionGroup var migrations: MigrationsOptions

    @Argument(help: "What the migration does, e.g. create_listing.")
    var name: String

    func validate() throws {
        guard MigrationTemplate.fileName(for: name) != nil else {
            throw ValidationError("NAME must contain letters or digits, e.g. create_listing")
        }
    }

    func run() throws {
        try ErrorReporter.run {
            let layout = try migrations.layout()
            print(try MigrationTemplate.create(
                name: name, folder: layout.migrationsDirectory.relativePath, upOnly: layout.kind == .supabase))
        }
    }
}
