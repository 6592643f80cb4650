import ArgumentParser
import Foundation
import WardenKit
import WardenPostgres

/// The `pgwarden` command: provision, migrate, and prove the access plan.
@main
struct Pgwarden: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pgwarden",
        abstract: "Provision, migrate and prove the access plan of a PostgreSQL or Supabase database.",
        discussion: """
            Connection: --database-url, else DATABASE_URL, else libpq's PG* environment \
            (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSERVICE, ~/.pgpass).

            Exit status: 0 success; 1 a migration, an access-plan check or a pgTAP assertion \
            failed, or lint (test --strict) found a danger; 2 status found pending migrations; \
            3 history drift (modified, missing or failed migrations); 64 usage error; 65 bad \
            input (migration files, an unknown version, a migration that cannot be rolled back, \
            the plan file, a pgTAP file, supabase/config.toml); 69 server unreachable, \
            PostgreSQL programs or pgTAP missing; 73 a file cannot be written (a report, \
            init's project, a plan draft); 75 lock or statement timeout (another run's lock, \
            a migration's or the access-plan run's wait); 129, 130, 143 interrupted by \
            SIGHUP, SIGINT, SIGTERM.
            """,
        version: WardenKit.version,
        subcommands: [
            DevCommand.self, BootstrapCommand.self, NewCommand.self, StatusCommand.self, UpCommand.self,
            DownCommand.self, RedoCommand.self, ResolveCommand.self, SeedCommand.self, ResetCommand.self,
            TestCommand.self, InitCommand.self, PlanCommand.self, LintCommand.self,
        ]
    )

    static func main() {
        // libpq loads on another thread while the arguments and input files are read;
        // not for what only prints (`--version`, `--help`): the process's exit waits for
        // a load in progress (it took `--version` from about 4 ms to 13).
        if !Self.onlyPrints(CommandLine.arguments.dropFirst()) { LibPQLoading.start() }
        // Line-buffer standard output so progress and URLs appear at once in pipes and logs.
        Terminal.lineBufferStandardOutput()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// Whether the arguments ask only for the version or help.
    static func onlyPrints(_ arguments: ArraySlice<String>) -> Bool {
        arguments.first == "help" || arguments.contains { ["--version", "--help", "-h"].contains($0) }
    }
}
