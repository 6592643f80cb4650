import Foundation
import WardenKit

/// Prints a lint report as `ReportPrinter` prints a plan's.
struct LintPrinter {
    let format: LintCommand.Format
    let output: String?

    func print(_ report: LintReport) throws {
        let text: String
        switch format {
        case .text: text = LintReportFormats.text(report)
        case .json: text = try LintReportFormats.json(report)
        case .junit: text = LintReportFormats.junit(report)
        case .markdown: text = LintReportFormats.markdown(report)
        case .github:
            text = LintReportFormats.text(report) + "\n" + LintReportFormats.github(report)
            try ReportPrinter.appendStepSummary(LintReportFormats.markdown(report))
        }
        guard let output else {
            Swift.print(text)
            return
        }
        Swift.print(LintReportFormats.text(report))
        try ReportPrinter.save(text + "\n", to: output)
    }
}
