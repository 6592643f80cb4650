import Foundation

/// A lint report in the formats `pgwarden test` has: text, JSON, JUnit XML, GitHub
/// annotations (on the migration line that created the object, when found) and Markdown.
public enum LintReportFormats {
    /// The terminal text: one block per finding, dangers first, then a summary line.
    public static func text(_ report: LintReport) -> String {
        var lines: [String] = []
        for finding in ordered(report) {
            let place = finding.location.map { " (\($0.file):\($0.line))" } ?? ""
            lines.append("\(finding.status.uppercased()) \(finding.rule.rawValue) \(finding.subject)\(place)")
            lines.append("  \(finding.detail)")
            for line in finding.consequence?.evidence ?? [] { lines.append("  probe: \(line)") }
        }
        lines += report.signUpLines
        lines.append(summary(report))
        return lines.joined(separator: "\n")
    }

    /// One line: how many findings, how many dangers.
    public static func summary(_ report: LintReport) -> String {
        let intended = report.findings.filter(\.intended).count
        return "lint: \(counted(report.findings.count, "finding")), \(counted(report.dangers.count, "danger"))"
            + (intended > 0 ? ", \(intended) intended by the access plan" : "")
            + (report.leftOut.isEmpty ? "" : "; \(counted(report.leftOut.count, "persona")) left out (not probed)")
    }

    public static func json(_ report: LintReport) throws -> String {
        struct Document: Encodable {
            var findings: [LintFinding]
            var leftOut: [PersonaSignUpRefusal]
            var metadataGuess: SignUpMetadataGuess?
            var dangers: Int
            var passed: Bool
            var seconds: Double
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(findings: report.findings, leftOut: report.leftOut, metadataGuess: report.metadataGuess,
                                dangers: report.dangers.count, passed: report.passed,
                                seconds: report.duration.inSeconds)
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    /// A test case per finding, failing when it is a danger.
    public static func junit(_ report: LintReport) -> String {
        let seconds = String(format: "%.3f", report.duration.inSeconds)
        let leftOut = report.leftOut.isEmpty ? 0 : 1
        let count = report.findings.count + leftOut, failures = report.dangers.count + leftOut
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites name=\"pgwarden lint\" tests=\"\(count)\" failures=\"\(failures)\" time=\"\(seconds)\">",
            "  <testsuite name=\"lint\" tests=\"\(count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(seconds)\">",
        ]
        for finding in report.findings {
            let open = "    <testcase classname=\"\(xml(finding.rule.rawValue))\" name=\"\(xml(finding.subject))\""
            guard finding.isDanger else {
                lines.append(open + "/>")
                continue
            }
            lines.append(open + ">")
            lines.append("      <failure message=\"\(xml(finding.detail))\">\(xml(message(finding)))</failure>")
            lines.append("    </testcase>")
        }
        if leftOut > 0 {
            let text = PersonaSignUpRefusal.lines(report.leftOut)
            lines.append("    <testcase classname=\"pgwarden\" name=\"signed-in personas\">")
            lines.append("      <failure message=\"\(xml(text[0]))\">\(xml(text.joined(separator: "\n")))</failure>")
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n")
    }

    /// `::error` for dangers, `::warning` for other security findings, `::notice` for the rest.
    public static func github(_ report: LintReport) -> String {
        let leftOut = PersonaSignUpRefusal.lines(report.leftOut)
        let notice = leftOut.isEmpty ? [] : [
            "::error title=\(GitHubAnnotations.property("pgwarden lint: personas left out"))::"
                + GitHubAnnotations.data(leftOut.joined(separator: "\n")),
        ]
        return (notice + ordered(report).map { finding in
            let quiet = finding.intended || finding.consequence?.verdict == .harmless || finding.rule.level == .info
            let command = finding.isDanger ? "error" : finding.rule.isSecurity && !quiet ? "warning" : "notice"
            var properties: [String] = []
            if let location = finding.location {
                properties += ["file=\(GitHubAnnotations.property(location.file))", "line=\(location.line)"]
            }
            properties.append("title=\(GitHubAnnotations.property("\(finding.rule.rawValue): \(finding.subject)"))")
            return "::\(command) \(properties.joined(separator: ","))::\(GitHubAnnotations.data(message(finding)))"
        }).joined(separator: "\n")
    }

    public static func markdown(_ report: LintReport) -> String {
        var lines = ["## pgwarden lint", "", summary(report), "", "| status | rule | object | proven |", "| --- | --- | --- | --- |"]
        for finding in ordered(report) {
            let proven = (finding.consequence?.evidence ?? []).map(MarkdownReport.cell).joined(separator: "<br>")
            lines.append("| \(finding.status) | [`\(finding.rule.rawValue)`](\(finding.rule.remediation)) | `\(MarkdownReport.cell(finding.subject))` | \(proven) |")
        }
        let leftOut = report.signUpLines
        if !leftOut.isEmpty { lines += ["", "```"] + leftOut + ["```"] }
        return lines.joined(separator: "\n")
    }

    /// The detail, the evidence and the remediation link.
    static func message(_ finding: LintFinding) -> String {
        ([finding.detail] + (finding.consequence?.evidence ?? []).map { "probe: \($0)" }
            + [finding.intended ? "intended: the access plan declares it" : "see \(finding.rule.remediation)"])
            .joined(separator: "\n")
    }

    /// Dangers first, then by level.
    static func ordered(_ report: LintReport) -> [LintFinding] {
        report.findings.enumerated().sorted { a, b in
            let keyA = (a.element.isDanger ? 0 : 1, -rank(a.element.rule.level), a.offset)
            let keyB = (b.element.isDanger ? 0 : 1, -rank(b.element.rule.level), b.offset)
            return keyA < keyB
        }.map(\.element)
    }

    private static func rank(_ level: LintRule.Level) -> Int { level == .error ? 2 : level == .warn ? 1 : 0 }

    private static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\n", with: "&#10;")
    }
}
