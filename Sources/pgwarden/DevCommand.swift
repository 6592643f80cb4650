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
            proves the access plan and prints its matrix, runs the pgTAP tests (--tests), then stops the server and deletes \
            everything (also on Ctrl-C). The server starts from a copy of a cached, bootstrapped \
            template (in $XDG_CACHE_HOME/pgwarden or ~/.cache/pgwarden, or PGWARDEN_CACHE_DIR; \
            made on the first run, remade when PostgreSQL or pgwarden changes; docs/dev-cache.md). With --keep the server stays up, and its URL is \
            printed, until you press Ctrl-C. Exit status as for `pgwarden test`. Without a plan \
            file, shows the access as observed, its dangers and how to start a plan (exit status 0; \
            1 when a pgTAP test fails, or when a signed-in persona had to be left out because the \
            project's sign-up trigger refused it: give it --user-metadata, or write a plan with metadata:).
            """
    )

    @OptionGroup var migrations: MigrationsOptions
    @OptionGroup var seeds: SeedsOptions
    @OptionGroup var plan: PlanOptions
    @OptionGroup var tests: TestsOptions
    @OptionGroup var userMetadata: UserMetadataOptions

    @Option(help: "Report format, as for `pgwarden test`: text, junit, tap, json, github or markdown.")
    var format: TestCommand.Format = .text

    @Flag(help: "Run initdb and the twin's bootstrap afresh, without the cached template (also: PGWARDEN_NO_CACHE=1).")
    var noCache = false

    @Flag(help: "Leave the server running and print its connection URL (stop it with Ctrl-C).")
    var keep = false

    func run() throws {
        try ErrorReporter.run {
            let clock = ContinuousClock()
            let began = clock.now
            let layout = try migrations.project.layout(
                migrations: migrations.folder, seeds: seeds.folder, plan: plan.file,
                allGiven: migrations.folder != nil && seeds.folder != nil && plan.file != nil)
            let suite = try tests.suite(in: layout)
            let runsPlan = try TestsOptions.hasPlan(layout, named: plan.file)
            let progress = MigrationProgress.standard()
            try ProjectTwin.run(layout, withPlan: runsPlan, noCache: noCache, progress: progress,
                                say: { print($0) }) { twin in
                try provisionAndProve(on: twin, layout: layout, suite: suite, began: began, clock: clock, progress: progress)
            }
        }
    }

    /// The run's work on its twin: provision, then the plan (or the observation) and the
    /// pgTAP tests, reported; with --keep, waits for Ctrl-C, whether the run passed,
    /// failed or stopped on an error.
    private func provisionAndProve(
        on twin: ProjectTwin, layout: ProjectLayout, suite: PgTAPSuite?, began: ContinuousClock.Instant, clock: ContinuousClock,
        progress: MigrationProgress
    ) throws {
        let inputs = twin.inputs
        let projectSettings = twin.projectSettings
        // The plan's run reads the catalog on a second session, opened meanwhile
        // when the project's role is already there (a twin from the template).
        let catalogSession = inputs.access.plan != nil && twin.cluster.origin.isBootstrapped
            ? ConnectionInBackground(projectSettings) : nil
        let connection = try twin.provision()
        // Said before a long plan or pgTAP suite runs, so the server can be used meanwhile.
        if keep { print("keep: the server stays up after the run: \(twin.cluster.url(user: twin.cluster.projectUser))") }
        do {
            try proveAndReport(on: twin, connection: connection, layout: layout, suite: suite, catalogSession: catalogSession,
                               began: began, clock: clock, progress: progress)
        } catch where keep && InterruptHandler.shared.receivedSignal == nil && !(error is ExitCode) {
            // A run that failed keeps the server too, as --keep said it would: a failing
            // run is when the user most wants to look (it was deleted, exit 65).
            ErrorReporter.printError(error)
            keepRunning(twin)
            throw ErrorReporter.exitCode(for: error)
        }
    }

    /// The observation or the plan, and the pgTAP tests, on the provisioned twin, reported.
    private func proveAndReport(
        on twin: ProjectTwin, connection: Connection, layout: ProjectLayout, suite: PgTAPSuite?,
        catalogSession: ConnectionInBackground?, began: ContinuousClock.Instant, clock: ContinuousClock,
        progress: MigrationProgress
    ) throws {
        let inputs = twin.inputs
        let projectSettings = twin.projectSettings
        let suites: [TestSuiteResult]
        let passed: Bool
        switch inputs.access {
        case .plan(let accessPlan):
            userMetadata.noteIfPlanned()
            let report = try progress.showing("proving the access plan") {
                try accessPlan.prove(on: connection, limits: .init(), catalogSession: catalogSession)
            }
            suites = try suite.map { suite in
                try progress.showing("running the pgTAP tests") { try suite.run(on: Connection(projectSettings)) }
            } ?? []
            let run = TestRunReport(accessPlan: report, plan: accessPlan, suites: suites)
            print("")
            try ReportPrinter(format: format, output: nil, plan: accessPlan).print(run)
            passed = run.passed
        case .observation(let api):
            let observed = try progress.showing("observing what anon, two signed-in users and service_role may do") {
                try api.observedAccess(on: connection, userMetadata: userMetadata.entries)
            }
            suites = try suite.map { suite in
                try progress.showing("running the pgTAP tests") { try suite.run(on: connection) }
            } ?? []
            print("")
            _ = try ObservedAccessPrinter(format: format, output: nil, planFile: layout.planFile.relativePath)
                .print(observed, suites: suites)
            // An observation that left a persona out is not a pass.
            passed = suites.allSatisfy(\.passed) && observed.leftOut.isEmpty
        }
        noteDataAPIExposure(after: suites, in: layout)
        print("dev: done in \((clock.now - began).wholeMilliseconds) ms")
        if keep { keepRunning(twin) }
        if !passed { throw ExitStatus.failure }
    }

    /// With --keep: says how to connect, then waits until Ctrl-C stops the server.
    private func keepRunning(_ twin: ProjectTwin) {
        print("server kept running; connect with:")
        print("URL: \(twin.cluster.url(user: twin.cluster.projectUser))")
        print("superuser URL (as supabase_admin): \(twin.cluster.url())")
        print("press Ctrl-C to stop it and delete its data")
        while twin.cluster.isRunning { sleep(1) }
    }
}
