import Foundation

/// The reports CI systems read, for the access plan and the suites together: JUnit
/// XML (a testsuite per pgTAP file, a testcase per assertion), TAP 13 and JSON. With
/// no suites, each is exactly the access plan's own (`MachineReports`).
extension TestRunReport {
    /// JUnit XML: one test suite for the access plan, one per pgTAP file.
    public func junit() -> String {
        if let accessPlan, suites.isEmpty { return MachineReports.junit(accessPlan) }
        var inner: [String] = []
        var tests = 0, failures = 0, skipped = 0
        var seconds = 0.0
        if let accessPlan {
            // The plan's own <testsuite>, without the document's first two lines and last one.
            inner += MachineReports.junit(accessPlan).components(separatedBy: "\n").dropFirst(2).dropLast()
            tests += accessPlan.results.count
            failures += accessPlan.failures.count
            seconds += accessPlan.duration.inSeconds
        }
        for suite in suites {
            inner += Self.junitSuite(suite)
            tests += suite.cases.count
            failures += suite.failures.count
            skipped += suite.cases.filter { $0.status == .skipped || $0.status == .todo }.count
            seconds += suite.duration.inSeconds
        }
        let name = accessPlan == nil ? "pgwarden pgTAP" : "pgwarden access plan and pgTAP"
        return ([
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites name=\"\(name)\" tests=\"\(tests)\" failures=\"\(failures)\" skipped=\"\(skipped)\" "
                + "time=\"\(String(format: "%.3f", seconds))\">",
        ] + inner + ["</testsuites>"]).joined(separator: "\n")
    }

    static func junitSuite(_ suite: TestSuiteResult) -> [String] {
        let skipped = suite.cases.filter { $0.status == .skipped || $0.status == .todo }.count
        var lines = [
            "  <testsuite name=\"\(Self.xml(suite.file))\" tests=\"\(suite.cases.count)\" failures=\"\(suite.failures.count)\" "
                + "errors=\"0\" skipped=\"\(skipped)\" time=\"\(String(format: "%.3f", suite.duration.inSeconds))\">"
        ]
        for testCase in suite.cases {
            var open = "    <testcase classname=\"\(Self.xml(suite.file))\" name=\"\(Self.xml(testCase.name))\" file=\"\(Self.xml(suite.file))\""
            if let line = testCase.line { open += " line=\"\(line)\"" }
            switch testCase.status {
            case .passed:
                lines.append(open + "/>")
            case .failed:
                let message = "\(suite.file): \(testCase.name)"
                lines.append(open + ">")
                lines.append("      <failure message=\"\(Self.xml(message))\">\(Self.xml(testCase.diagnostics.joined(separator: "\n")))</failure>")
                lines.append("    </testcase>")
            case .skipped, .todo:
                lines += [open + ">", "      <skipped message=\"\(Self.xml(directive(testCase) ?? ""))\"/>", "    </testcase>"]
            }
        }
        lines.append("  </testsuite>")
        return lines
    }

    /// TAP version 13: one line per cell and per assertion.
    public func tap() -> String {
        if let accessPlan, suites.isEmpty { return MachineReports.tap(accessPlan) }
        var body: [String] = []
        var number = 0
        if let accessPlan {
            // The plan's test lines (numbered from 1), without its version and plan lines.
            body += MachineReports.tap(accessPlan).components(separatedBy: "\n").dropFirst(2)
            number = accessPlan.results.count
        }
        for suite in suites {
            for testCase in suite.cases {
                number += 1
                let name = "\(suite.file) · \(testCase.name)".replacingOccurrences(of: "#", with: "\\#")
                var line = "\(testCase.status == .failed ? "not ok" : "ok") \(number) - \(name)"
                if let directive = Self.directive(testCase) { line += " # \(directive)" }
                body.append(line)
                if testCase.status == .failed {
                    body += ["  ---", "  file: \(Self.yamlScalar(suite.file))"]
                    if let where_ = testCase.line { body.append("  line: \(where_)") }
                    if !testCase.diagnostics.isEmpty {
                        body.append("  diagnostics: \(Self.yamlScalar(testCase.diagnostics.joined(separator: "\n")))")
                    }
                    body.append("  ...")
                }
            }
        }
        return (["TAP version 13", "1..\(number)"] + body).joined(separator: "\n")
    }

    /// A JSON document: the access plan's report and the suites, with summaries.
    public func json() throws -> String {
        var document: [String: Any] = [:]
        if let accessPlan {
            let planJSON = MachineReports.json(accessPlan)
            guard suites.isEmpty else {
                document = (try JSONSerialization.jsonObject(with: Data(planJSON.utf8)) as? [String: Any]) ?? [:]
                return try Self.encode(document.merging(suitesDocument()) { _, new in new })
            }
            return planJSON
        }
        return try Self.encode(suitesDocument())
    }

    private func suitesDocument() -> [String: Any] {
        let files: [[String: Any]] = suites.map { suite in
            [
                "file": suite.file, "passed": suite.passed, "assertions": suite.cases.count,
                "failures": suite.failures.count, "duration_milliseconds": suite.duration.wholeMilliseconds,
                "cases": suite.cases.map { testCase -> [String: Any] in
                    var entry: [String: Any] = [
                        "name": testCase.name, "description": testCase.description,
                        "status": testCase.status.rawValue, "diagnostics": testCase.diagnostics,
                    ]
                    entry["number"] = testCase.number
                    entry["line"] = testCase.line
                    entry["reason"] = testCase.reason
                    return entry
                },
            ]
        }
        return ["passed": passed, "pgtap": files]
    }

    private static func encode(_ document: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\n", with: "&#10;")
    }

    private static func yamlScalar(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''").replacingOccurrences(of: "\n", with: " / ") + "'"
    }
}
