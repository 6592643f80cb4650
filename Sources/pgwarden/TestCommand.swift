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
            65 when the plan file itself is wrong.
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
        help: ArgumentHelp("Also write the report to this file (the terminal still gets the matrix).", valueName: "FILE"),
        completion: .file())
    var output: String?

    func run() throws {
        try ErrorReporter.run {
            let plan = try AccessPlanParser.load(path: self.plan.file)
            let connection = try Connection(database.settings())
            let report = try AccessPlanRunner(connection: connection, plan: plan).run()
            try ReportPrinter(format: format, output: output, plan: plan).print(report)
            if !report.passed { throw ExitStatus.failure }
        }
    }
}

/// Prints an access-plan report in the chosen format, to stdout or a file.
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
            try appendStepSummary(MarkdownReport(report).render())
        case .junit: text = MachineReports.junit(report)
        case .tap: text = MachineReports.tap(report)
        case .json: text = try MachineReports.json(report)
        }
        if let output {
            try (text + "\n").write(toFile: output, atomically: true, encoding: .utf8)
            if format != .text { Swift.print(MatrixReport(report).render()) }
        } else {
            Swift.print(text)
        }
    }

    /// Appends to the file GitHub Actions names in GITHUB_STEP_SUMMARY, when set.
    private func appendStepSummary(_ markdown: String) throws {
        guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((markdown + "\n").utf8))
    }
}
