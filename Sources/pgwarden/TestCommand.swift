import ArgumentParser
import Foundation
import WardenPostgres
import WardenKit

/// `pgwarden test`: prove the access plan.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Prove the access plan: act as each persona and check what it sees and changes.",
        discussion: """
            Creates the plan's users (by inserting into auth.users), acts as each persona as \
            PostgREST does (set local role, request.jwt.claims), runs every probe in its own \
            savepoint and rolls everything back: no row is left changed. Sequences may advance, \
            as for any rolled-back insert. Exit status 1 when any cell fails, 0 when all hold, \
            65 when the plan file itself is wrong, 73 when the --output file cannot be written \
            (the matrix is still shown). With --strict, also 1 when `pgwarden lint` finds a \
            danger the plan does not declare.

            Without a plan file (none at --plan), shows the access as observed (what \
            `pgwarden plan draft` sees: every exposed table, view and function for anon, two \
            signed-in users and service_role), marks the dangers, and says how to start a plan; \
            that is not an error: exit status 0 (with --strict, 1 when there is a danger).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, junit, tap, json, github, markdown
    }

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var plan: PlanOptions

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
            guard FileManager.default.fileExists(atPath: self.plan.file) else {
                let connection = try Connection(database.settings())
                let observed = try PlanDrafter(connection: connection).draft()
                let passed = try ObservedAccessPrinter(format: format, output: output, planFile: self.plan.file).print(observed)
                if strict && !passed { throw ExitStatus.failure }
                return
            }
            let plan = try AccessPlanParser.load(path: self.plan.file)
            let connection = try Connection(database.settings())
            let report = try AccessPlanRunner(connection: connection, plan: plan).run()
            try ReportPrinter(format: format, output: output, plan: plan).print(report)
            var passed = report.passed
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
}

/// Prints an access-plan report: the matrix on the terminal always; the chosen
/// format on standard output, or, with `--output`, in that file.
struct ReportPrinter {
    let format: TestCommand.Format
    let output: String?
    /// The plan that was run (for the file lines of GitHub annotations).
    var plan: AccessPlan?

    func print(_ report: AccessPlanReport) throws {
        let text: String
        switch format {
        case .text: text = MatrixReport(report).render()
        case .markdown: text = MarkdownReport(report).render()
        case .github:
            let annotations = plan.map { GitHubAnnotations(report, plan: $0).render() } ?? ""
            text = MatrixReport(report).render() + (annotations.isEmpty ? "" : "\n" + annotations)
            try Self.appendStepSummary(MarkdownReport(report).render())
        case .junit: text = MachineReports.junit(report)
        case .tap: text = MachineReports.tap(report)
        case .json: text = try MachineReports.json(report)
        }
        guard let output else {
            Swift.print(text)
            return
        }
        Swift.print(MatrixReport(report).render())
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
        if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((markdown + "\n").utf8))
    }
}

/// The report file could not be written (exit status 73).
struct ReportOutputError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot write the report to \(path): \(reason)" }
}
