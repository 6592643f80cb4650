import ArgumentParser
import WardenKit

/// `pgwarden status`: every migration's state.
struct StatusCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show every migration's version, name, state, applied time and duration.",
        discussion: """
            States: applied; pending (not applied yet); modified (applied, but its up \
            section changed since); missing (applied, but its file is gone); failed (ran \
            without a transaction and did not finish: check it, then `pgwarden resolve`). \
            A version only the Supabase CLI recorded (supabase_migrations.schema_migrations) \
            is applied, with a note and no checksum. Lines after the summary say where \
            file-name order differs from numeric order and which pending files come before \
            applied ones. Reads only; takes no lock.

            --format json prints {"migrations": [{"version", "name", "state", \
            "applied_at", "applied_by", "duration_ms", "file", "error", and "history" when the \
            two histories of a Supabase project disagree}], "summary": {...}, \
            "skipped": [paths of .sql files whose names are not migrations'], "order_notes": \
            [the order lines]}.

            Exit status: 0 every migration is applied; 2 some are pending; 3 some are \
            modified, missing or failed; 65 bad migration files; 69 server unreachable.
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var migrations: MigrationsOptions

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    func run() throws {
        try ErrorReporter.run {
            let folder = try migrations.load()
            let report = try folder.status(on: database.connect())
            print(format == .json ? try report.json() : report.text(advice: ErrorHint.statusAdvice))
            switch report.outcome {
            case .upToDate: return
            case .pending: throw ExitStatus.pending
            case .drift: throw ExitStatus.drift
            }
        }
    }
}
