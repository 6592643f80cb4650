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
        case text, junit, tap, json
    }

    @OptionGroup var connection: DatabaseOptions

    @OptionGroup var planOptions: PlanOptions

    @Option(help: "Report format: text (a matrix), junit, tap or json.")
    var format: Format = .text

    @Option(help: "Also write the report to this file (the terminal still gets the matrix).")
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

/// Prints an access-plan report in the chosen format, to stdout or a file.
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
        if let output {
            try (text + "\n").write(toFile: output, atomically: true, encoding: .utf8)
            if format != .text { Swift.print(MatrixReport(report).render()) }
        } else {
            Swift.print(text)
        }
    }
}
