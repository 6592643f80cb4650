import ArgumentParser
import Foundation
import WardenKit

/// Wiring shared by `up`, `down` and `redo`: read the migrations, connect, show
/// progress, cancel the running statement on Ctrl-C, print the outcome.
enum MigrationCommandRunner {
    /// Runs `body` with the migrations (read and checked before connecting), a
    /// connection, and the observer that draws progress.
    static func run(_ database: DatabaseOptions, _ migrations: MigrationsOptions,
                    _ body: (Migrations, Connection, @escaping (MigrationEvent) -> Void) throws -> MigrationRun) throws
    {
        try ErrorReporter.run {
            let folder = try migrations.load()
            let connection = try database.connect()
            let progress = MigrationProgress.standard()
            let canceller = connection.makeCanceller()
            let token = InterruptHandler.shared.onInterrupt {
                progress.stop()
                _ = canceller?.cancel()
            }
            defer { InterruptHandler.shared.remove(token) }
            let run: MigrationRun
            do {
                run = try body(folder, connection, progress.handle)
            } catch {
                progress.stop()
                throw error
            }
            if run.dryRun {
                run.steps.forEach { print(MigrationRun.line(for: $0, dryRun: true)) }
            }
            print(run.summary)
        }
    }
}
