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
            (the matrix is still shown).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, junit, tap, json
    }

    @OptionGroup var connection: DatabaseOptions

    @OptionGroup var planOptions: PlanOptions

    @Option(help: "Report format: text (a matrix), junit, tap or json.")
    var format: Format = .text

    @Option(help: "Write the report (in --format) to this file; the terminal still gets the matrix.")
    var output: String?

    func run() throws {
        try ErrorReporter.run {
            let plan = try AccessPlanParser.load(path: planOptions.plan)
            let connection = try Connection(self.connection.settings())
            let report = try AccessPlanRunner(connection: connection, plan: plan).run()
            try ReportPrinter(format: format, output: output).print(report)
            if !report.passed { throw ExitStatus.failure }
        }
    }
}

/// Prints an access-plan report: the matrix on the terminal always; the chosen
/// format on standard output, or, with `--output`, in that file.
struct ReportPrinter {
    let format: TestCommand.Format
    let output: String?

    func print(_ report: AccessPlanReport) throws {
        let text: String
        switch format {
        case .text: text = MatrixReport(report).render()
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
}

/// The report file could not be written (exit status 73).
struct ReportOutputError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot write the report to \(path): \(reason)" }
}
