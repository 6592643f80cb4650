import ArgumentParser
import Foundation
import WardenPostgres
import WardenKit

/// `pgwarden test`: prove the access plan and run the pgTAP suite.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Prove the access plan (act as each persona and check what it sees and changes) and run the pgTAP tests.",
        discussion: """
            Creates the plan's users (by inserting into auth.users), signs them in (auth.sessions, \
            the auth server's claims, the project's custom access token hook), acts as each persona \
            as PostgREST does (role settings, set local role, request.jwt.claims and the other \
            request settings), runs every probe in its own \
            savepoint and rolls everything back: no row is left changed. Sequences may advance, \
            as for any rolled-back insert. \
            pgTAP files (--tests, default supabase/tests) run as `supabase test db` runs them, \
            in one transaction that is rolled back, each file in a savepoint of its own; their assertions join the report. \
            A test file pgwarden cannot run (a refused statement or meta-command, a missing \\i or \\ir \
            include) fails on its own; the other files still run. \
            Exit status 1 when any cell or assertion fails, or a test file cannot run (with --strict, also when `pgwarden lint` \
            finds a danger the plan does not declare, or could not act as a persona), 0 when all hold, \
            65 when the plan file or the tests folder is wrong, 69 when the server has no pgTAP, \
            73 when the --output file cannot be written (the matrix is still shown), 75 when the run \
            waited longer than --plan-lock-timeout for a lock (the blocking session is named) or a \
            statement ran longer than --plan-statement-timeout; then everything is rolled back.

            Without a plan file, shows the access as observed (what `pgwarden plan draft` sees: \
            every exposed table, view and function for anon, two signed-in users and \
            service_role), marks the dangers, and says how to start a plan; that is not an \
            error: the pgTAP tests, if any, decide the exit status (with --strict, also the dangers). \
            When the project's sign-up trigger refuses the signed-in users (it needs user metadata), \
            they are left out, the rest is observed and the tests still run, and the exit status is 1 \
            (the observation is incomplete): give them --user-metadata '{"key": "value"}', or write \
            a plan whose personas have metadata:. With a plan, --strict's lint acts as the plan's personas.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, junit, tap, json, github, markdown
    }

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var project: ProjectOptions
    @OptionGroup var plan: PlanOptions

    @OptionGroup var limits: PlanLimitOptions
    @OptionGroup var tests: TestsOptions
    @OptionGroup var userMetadata: UserMetadataOptions

    @Option(help: "Report format: text (a matrix), junit, tap, json, github (annotations; the matrix also goes to $GITHUB_STEP_SUMMARY when set) or markdown.")
    var format: Format = .text

    @Option(
        help: ArgumentHelp("Write the report (in --format) to this file; the terminal still gets the matrix.", valueName: "FILE"),
        completion: .file())
    var output: String?

    @Flag(help: "Also fail (exit 1) when `pgwarden lint` finds a danger the plan does not declare.")
    var strict = false

    func run() throws {
        try ErrorReporter.run {
            // Every input file is read and checked first, while libpq loads (issue 18:
            // opening a session waits for it), so nothing reaches the server when one
            // is wrong.
            let layout = try project.layout(plan: self.plan.file, allGiven: self.plan.file != nil)
            let suite = try tests.suite(in: layout)
            // Without a plan, the project's config.toml says where its API looks.
            let access = try AccessCheck.read(
                planFile: layout.planFile, hasPlan: try TestsOptions.hasPlan(layout, named: self.plan.file),
                projectRoot: layout.root)
            // Given no database at all, a throwaway twin of the project (as `dev`).
            if let project = try ProjectTwin.standIn(databaseURL: database.databaseURL, layout: { layout }) {
                return try ProjectTwin.run(project, withPlan: access.plan != nil, noCache: false,
                                           progress: .onStandardError(), say: Terminal.note) {
                    try check(access, on: $0.provision(), catalogReads: nil, suite: suite, layout: layout)
                }
            }
            // The plan's run reads the committed catalog on a second session: those
            // reads start as soon as it is open, while the run's own session opens
            // (issue 18: they were the run's longest wait before its truth).
            let catalogReads = access.plan.flatMap { plan in
                database.connectInBackground().map { plan.startCatalogReads(on: $0, limits: limits.limits) }
            }
            let pending = database.connectInBackground()
            try check(access, on: try pending?.connection() ?? database.connect(), catalogReads: catalogReads,
                      suite: suite, layout: layout)
        }
    }

    /// Proves the plan (or, without one, observes the access) on `connection` and runs
    /// the tests; prints the report. Throws `ExitStatus.failure` when anything failed.
    private func check(
        _ access: AccessCheck, on connection: Connection, catalogReads: CatalogReadsInBackground?, suite: PgTAPSuite?,
        layout: ProjectLayout
    ) throws {
        let plan: AccessPlan
        switch access {
        case .plan(let planned): plan = planned
        case .observation(let api): return try observe(api, on: connection, suite: suite, layout: layout)
        }
        userMetadata.noteIfPlanned()
        let report = try plan.prove(on: connection, limits: limits.limits, catalogReads: catalogReads)
        let suites = try suite?.run(on: connection) ?? []
        defer { noteDataAPIExposure(after: suites, in: layout) }
        let run = TestRunReport(accessPlan: report, plan: plan, suites: suites)
        try ReportPrinter(format: format, output: output, plan: plan).print(run)
        var passed = run.passed
        if strict {
            let lint = try Linter(connection: connection, schemas: plan.schemas).run(plan: plan)
            // On standard error when standard output carries a machine format.
            if format == .text || output != nil {
                print(LintReportFormats.text(lint))
            } else {
                FileHandle.standardError.write(Data((LintReportFormats.text(lint) + "\n").utf8))
            }
            passed = passed && lint.passed
        }
        if !passed { throw ExitStatus.failure }
    }
}

extension TestCommand {
    /// Without a plan: runs the tests, then shows the access as observed (what `plan
    /// draft` sees) with its dangers, or says there is nothing to observe. Throws
    /// `ExitStatus.failure` when a test fails, the observation left a persona out, or
    /// (with --strict) a danger shows.
    private func observe(_ api: ProjectAPISettings, on connection: Connection, suite: PgTAPSuite?, layout: ProjectLayout) throws {
        let suites = try suite?.run(on: connection) ?? []
        defer { noteDataAPIExposure(after: suites, in: layout) }
        var noDanger = true, complete = true
        if try PlanDrafter.canObserve(connection) {
            let observed = try api.observedAccess(on: connection, userMetadata: userMetadata.entries)
            let printer = ObservedAccessPrinter(format: format, output: output, planFile: layout.planFile.relativePath)
            noDanger = try printer.print(observed, suites: suites)
            complete = observed.leftOut.isEmpty
        } else {
            Terminal.note("no access plan, and no Supabase API roles (anon, authenticated, service_role) "
                + "to act as: nothing to observe (pgwarden bootstrap adds them)")
            try ReportPrinter(format: format, output: output, plan: nil)
                .print(TestRunReport(accessPlan: nil, plan: nil, suites: suites))
        }
        // An observation that left a persona out is not a pass.
        if !suites.allSatisfy(\.passed) || (strict && !noDanger) || !complete { throw ExitStatus.failure }
    }
}

/// After the report: why a Supabase CLI project's failing pgTAP suites may fail on
/// grants alone (`DataAPIExposureNote`), as `dev` says it.
func noteDataAPIExposure(after suites: [TestSuiteResult], in layout: ProjectLayout) {
    if let note = DataAPIExposureNote.after(suites, in: layout) { Terminal.note(note) }
}

/// Prints an access-plan report: the matrix on the terminal always; the chosen
/// format on standard output, or, with `--output`, in that file.
struct ReportPrinter {
    let format: TestCommand.Format
    let output: String?
    /// The plan that was run (for the file lines of GitHub annotations).
    var plan: AccessPlan?

    func print(_ report: AccessPlanReport) throws {
        try print(TestRunReport(accessPlan: report, plan: plan, suites: []))
    }

    /// The access plan's report and the pgTAP suites' together (either may be absent).
    func print(_ run: TestRunReport) throws {
        let text: String
        // The matrix is made only where it is shown: the text and github formats, or the
        // terminal when the report goes to --output (a machine format on standard output
        // does not carry it; issue 18: about a millisecond of Electric Ride's run).
        let screen = format == .text || format == .github || output != nil ? run.text() : ""
        switch format {
        case .text: text = screen
        case .markdown: text = run.markdown()
        case .github:
            let annotations = run.githubAnnotations()
            text = screen + (annotations.isEmpty ? "" : "\n" + annotations)
            try Self.appendStepSummary(run.markdown())
        case .junit: text = run.junit()
        case .tap: text = run.tap()
        case .json: text = try run.json()
        }
        guard let output else {
            Swift.print(text)
            return
        }
        Swift.print(screen)
        try Self.save(text + "\n", to: output)
    }

    /// Writes the file (created or truncated, mode 0644 before the umask).
    static func save(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ReportOutputError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ReportOutputError(path: path, reason: String(cString: strerror(errno))) }
            written += count
        }
    }

    /// Appends to the file GitHub Actions names in GITHUB_STEP_SUMMARY, when set.
    static func appendStepSummary(_ markdown: String) throws {
        guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((markdown + "\n").utf8))
    }
}

/// The report file could not be written (exit status 73).
struct ReportOutputError: WardenError {
    var path: String
    var reason: String
    var category: ErrorCategory { .cannotWrite }
    var description: String { "cannot write the report to \(path): \(reason)" }
}
