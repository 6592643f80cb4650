import Foundation
import WardenKit

/// Prints the access observed when there is no plan: the matrix in `format` (the
/// dangers and the next step go to standard output with text, else to standard error,
/// so a JSON or XML report stays parseable). Returns false when a danger was found
/// (personas left out are named too; the caller decides the exit status with `leftOut`).
struct ObservedAccessPrinter {
    let format: TestCommand.Format
    let output: String?
    let planFile: String

    /// Prints the observed access and, after it, the pgTAP suites' results (if any).
    func print(_ draft: PlanDraft, suites: [TestSuiteResult] = []) throws -> Bool {
        let observed = ObservedAccessReport(draft, planFile: planFile)
        if format == .text && output == nil {
            Swift.print(observed.render())
            if !suites.isEmpty { Swift.print("\n" + TestRunReport(accessPlan: nil, plan: nil, suites: suites).text()) }
        } else {
            let notes = ([observed.heading] + observed.linesAfterMatrix(sayingNoDangers: false)).joined(separator: "\n")
            FileHandle.standardError.write(Data((notes + "\n").utf8))
            // The tests, when there are any, are the report; else the access as observed.
            try ReportPrinter(format: format, output: output, plan: nil)
                .print(TestRunReport(accessPlan: suites.isEmpty ? draft.report : nil, plan: nil, suites: suites))
        }
        return observed.dangerLines.isEmpty
    }
}
