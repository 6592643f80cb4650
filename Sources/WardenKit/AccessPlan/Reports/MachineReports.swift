import Foundation

/// Reports for CI systems: JUnit XML, TAP version 13, and JSON. One test case per probe.
package enum MachineReports {
    package static func junit(_ report: AccessPlanReport) -> String {
        let seconds = String(format: "%.3f", report.duration.inSeconds)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<testsuites name=\"pgwarden access plan\" tests=\"\(report.results.count)\" failures=\"\(report.failures.count)\" time=\"\(seconds)\">",
            "  <testsuite name=\"\(xml(report.planSource))\" tests=\"\(report.results.count)\" failures=\"\(report.failures.count)\" errors=\"0\" skipped=\"0\" time=\"\(seconds)\">",
        ]
        for result in report.results {
            let name = [result.persona, result.probe].compactMap { $0 }.joined(separator: " · ")
            let open = "    <testcase classname=\"\(xml(result.subject))\" name=\"\(xml(name))\""
            if result.passed {
                lines.append(open + "/>")
            } else {
                lines.append(open + ">")
                lines.append("      <failure message=\"\(xml("expected \(result.expected); observed \(result.observed)"))\"/>")
                lines.append("    </testcase>")
            }
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n")
    }

    package static func tap(_ report: AccessPlanReport) -> String {
        var lines = ["TAP version 13", "1..\(report.results.count)"]
        for (index, result) in report.results.enumerated() {
            lines.append("\(result.passed ? "ok" : "not ok") \(index + 1) - \(result.name.replacingOccurrences(of: "#", with: "\\#"))")
            if !result.passed {
                lines += ["  ---", "  expected: \(yamlScalar(result.expected))", "  observed: \(yamlScalar(result.observed))", "  ..."]
            }
        }
        return lines.joined(separator: "\n")
    }

    package static func json(_ report: AccessPlanReport) throws -> String {
        struct Document: Encodable {
            var plan: String
            var passed: Bool
            var probes: Int
            var failures: Int
            var durationMilliseconds: Int
            var results: [ProbeResult]

            // Spelled out: `JSONEncoder`'s `convertToSnakeCase` converts every key
            // of every result again, a few milliseconds for a plan of 291 probes.
            enum CodingKeys: String, CodingKey {
                case plan, passed, probes, failures, results
                case durationMilliseconds = "duration_milliseconds"
            }
        }
        let document = Document(
            plan: report.planSource, passed: report.passed, probes: report.results.count,
            failures: report.failures.count,
            durationMilliseconds: report.duration.wholeMilliseconds,
            results: report.results)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    private static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func yamlScalar(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

extension ProbeResult: Encodable {
    enum CodingKeys: String, CodingKey {
        case subjectKind = "kind", subject, persona, operation, probe, expected, observed, passed
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subjectKind.rawValue, forKey: .subjectKind)
        try container.encode(subject, forKey: .subject)
        try container.encodeIfPresent(persona, forKey: .persona)
        try container.encodeIfPresent(operation?.rawValue, forKey: .operation)
        try container.encode(probe, forKey: .probe)
        try container.encode(expected, forKey: .expected)
        try container.encode(observed, forKey: .observed)
        try container.encode(passed, forKey: .passed)
    }
}
