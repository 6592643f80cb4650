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

    /// The report as JSON, keys sorted, two spaces an indent: the text `JSONEncoder`
    /// writes with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` for
    /// `ProbeResult`'s `Encodable` form (a unit test compares them), written here as
    /// UTF-8 bytes because the encoder took about 1.4 ms for Electric Ride's 291
    /// results, between the run's end and its report (issue 18).
    package static func json(_ report: AccessPlanReport) -> String {
        var out = JSONBytes()
        out.raw("{\n  \"duration_milliseconds\" : \(report.duration.wholeMilliseconds),\n  \"failures\" : ")
        out.raw("\(report.failures.count),\n  \"passed\" : \(report.passed),\n  \"plan\" : ")
        out.string(report.planSource)
        out.raw(",\n  \"probes\" : \(report.results.count),\n  \"results\" : [")
        for (index, result) in report.results.enumerated() {
            out.raw(index == 0 ? "\n    {\n      \"expected\" : " : ",\n    {\n      \"expected\" : ")
            out.string(result.expected)
            out.raw(",\n      \"kind\" : ")
            out.string(result.subjectKind.rawValue)
            out.raw(",\n      \"observed\" : ")
            out.string(result.observed)
            if let operation = result.operation {
                out.raw(",\n      \"operation\" : ")
                out.string(operation.rawValue)
            }
            out.raw(result.passed ? ",\n      \"passed\" : true" : ",\n      \"passed\" : false")
            if let persona = result.persona {
                out.raw(",\n      \"persona\" : ")
                out.string(persona)
            }
            out.raw(",\n      \"probe\" : ")
            out.string(result.probe)
            out.raw(",\n      \"subject\" : ")
            out.string(result.subject)
            out.raw("\n    }")
        }
        out.raw(report.results.isEmpty ? "\n\n  ]\n}" : "\n  ]\n}")
        return out.text
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
