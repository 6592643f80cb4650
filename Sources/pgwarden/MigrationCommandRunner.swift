import ArgumentParser
import Foundation
import WardenKit

/// Wiring shared by `up`, `down` and `redo`: open the migrator, show progress, cancel
/// the running statement on Ctrl-C, print the outcome.
enum MigrationCommandRunner {
    static func run(_ database: DatabaseOptions, _ migrations: MigrationsOptions, _ lock: LockOptions,
                    _ body: (Migrator) throws -> MigrationRun) throws
    {
        try ErrorReporter.run {
            let migrator = try migrations.openMigrator(database)
            lock.configure(migrator)
            let progress = MigrationProgress.standard()
            migrator.observer = progress.handle
            let interrupt = migrator.session.makeInterrupter()
            let token = InterruptHandler.shared.onInterrupt {
                progress.stop()
                interrupt?()
            }
            defer { InterruptHandler.shared.remove(token) }
            let run: MigrationRun
            do {
                run = try body(migrator)
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
