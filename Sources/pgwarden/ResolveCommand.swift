import ArgumentParser
import WardenKit

/// `pgwarden resolve VERSION --applied | --rolled-back`: settle a failed migration.
struct ResolveCommand: ParsableCommand {
    enum Resolution: String, EnumerableFlag {
        case applied, rolledBack

        static func help(for value: Resolution) -> ArgumentHelp? {
            switch value {
            case .applied: return "Its changes are complete: mark it applied."
            case .rolledBack: return "Its changes were undone: forget it, so `up` runs it again."
            }
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Settle a migration marked failed, after checking the database by hand.",
        discussion: """
            A migration is marked failed when a `transaction:false` section stopped \
            part-way (or the run was killed while it ran), or a section ended its own \
            transaction: pgwarden cannot know what it changed. Look at the database, finish \
            or undo its work, then tell pgwarden which it is.

            Exit status: 0 settled; 65 the version is not marked failed or does not exist; \
            69 server unreachable; 75 lock timeout.
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var migrations: MigrationsOptions
    @OptionGroup var lock: LockOptions

    @Argument(help: ArgumentHelp("The failed migration's version (digits).", valueName: "VERSION"))
    var version: MigrationVersion

    @Flag(exclusivity: .exclusive)
    var resolution: Resolution

    func run() throws {
        try ErrorReporter.run {
            let folder = try migrations.load()
            let connection = try database.connect()
            switch resolution {
            case .applied:
                try folder.resolve(version, as: .applied, on: connection, lockTimeout: lock.lockTimeout)
                print("marked \(version) applied")
            case .rolledBack:
                try folder.resolve(version, as: .rolledBack, on: connection, lockTimeout: lock.lockTimeout)
                print("marked \(version) rolled back: it is pending again")
            }
        }
    }
}
