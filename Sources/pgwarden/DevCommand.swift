import ArgumentParser
import Foundation
import WardenKit

/// `pgwarden dev`: the whole job on an ephemeral local PostgreSQL.
struct DevCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev",
        abstract: "Run the whole job on an ephemeral local PostgreSQL: bootstrap, up, seed, test.",
        discussion: """
            Starts a throwaway server (data in a temporary directory, Unix socket only), \
            makes it a twin of a Supabase project (as supabase_admin, its only superuser), then, \
            as postgres (not a superuser, as on Supabase), applies the migrations, loads the seeds, \
            proves the access plan and prints its matrix, then stops the server and deletes \
            everything (also on Ctrl-C). With --keep the server stays up, and its URL is \
            printed, until you press Ctrl-C. Exit status as for `pgwarden test`. Without a plan \
            file, shows the access as observed, its dangers and how to start a plan (exit status 0).
            """
    )

    @OptionGroup var migrations: MigrationsOptions
    @OptionGroup var seeds: SeedsOptions
    @OptionGroup var plan: PlanOptions

    @Option(help: "Report format, as for `pgwarden test`: text, junit, tap, json, github or markdown.")
    var format: TestCommand.Format = .text

    @Flag(help: "Leave the server running and print its connection URL (stop it with Ctrl-C).")
    var keep = false

    func run() throws {
        // Signals are handled from the first moment; whatever happens, the server's
        // watchdog removes what is left when this process ends.
        InterruptHandler.shared.install()
        try ErrorReporter.run {
            let clock = ContinuousClock()
            let began = clock.now
            let cluster = try LocalCluster.start()
            let token = InterruptHandler.shared.onInterrupt { cluster.stop() }
            defer {
                InterruptHandler.shared.remove(token)
                cluster.stop()
            }
            let version = try ServerInfo.version(of: cluster.settings())
            print("server: PostgreSQL \(version), ready in \(cluster.startupDuration.wholeMilliseconds) ms")
            // As on Supabase: bootstrap as the superuser, everything else as postgres.
            var job = ProjectJob(
                settings: cluster.settings(user: cluster.projectUser),
                project: Project(
                    migrations: URL(fileURLWithPath: migrations.folder), seeds: URL(fileURLWithPath: seeds.folder),
                    plan: URL(fileURLWithPath: plan.file))) { print($0) }
            job.bootstrapSettings = cluster.settings()
            let progress = MigrationProgress.standard()
            job.onMigrationEvent = progress.handle
            var passed = true
            if FileManager.default.fileExists(atPath: plan.file) {
                let report = try job.provisionAndProve()
                print("")
                try ReportPrinter(format: format, output: nil, plan: try AccessPlanParser.load(path: plan.file)).print(report)
                passed = report.passed
            } else {
                let observed = try PlanDrafter(connection: try job.provision()).draft()
                print("")
                _ = try ObservedAccessPrinter(format: format, output: nil, planFile: plan.file).print(observed)
            }
            print("dev: done in \((clock.now - began).wholeMilliseconds) ms")
            if keep {
                print("server kept running; connect with:")
                print("URL: \(cluster.url(user: cluster.projectUser))")
                print("superuser URL (as supabase_admin): \(cluster.url())")
                print("press Ctrl-C to stop it and delete its data")
                while cluster.isRunning { sleep(1) }
            }
            if !passed { throw ExitStatus.failure }
        }
    }
}
