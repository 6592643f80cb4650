import Foundation
import Testing
@testable import WardenKit

/// The access plan's JSON report is written by hand (`MachineReports.json`, for speed)
/// and must be, byte for byte, what `JSONEncoder` writes for the same document: keys
/// sorted, two spaces an indent, absent optionals left out, strings escaped alike.
@Suite struct PlanReportJSONTests {
    /// The document as `JSONEncoder` sees it, with `ProbeResult`'s own `Encodable` form.
    private struct Document: Encodable {
        var plan: String
        var passed: Bool
        var probes: Int
        var failures: Int
        var durationMilliseconds: Int
        var results: [ProbeResult]

        enum CodingKeys: String, CodingKey {
            case plan, passed, probes, failures, results
            case durationMilliseconds = "duration_milliseconds"
        }
    }

    private func encoded(_ report: AccessPlanReport) throws -> String {
        let document = Document(
            plan: report.planSource, passed: report.passed, probes: report.results.count,
            failures: report.failures.count, durationMilliseconds: report.duration.wholeMilliseconds,
            results: report.results)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    private func report(_ results: [ProbeResult], plan: String = "plans/access-plan.yml") -> AccessPlanReport {
        AccessPlanReport(
            planSource: plan, personas: [], relations: [], functions: [], access: [:], execute: [:],
            results: results, duration: .milliseconds(1234))
    }

    @Test func writesWhatJSONEncoderWrites() throws {
        let results = [
            ProbeResult(
                subjectKind: .relation, subject: "public.colour", persona: "anon", operation: .select, probe: "select",
                expected: "none (0 rows or permission denied)", observed: "none (0 rows)", passed: true),
            ProbeResult(
                subjectKind: .check, subject: "a \"quoted\" check \\ with / slash\ttab\nline\r\u{8}\u{c}\u{1}\u{1f}\u{7f}",
                persona: nil, operation: nil, probe: "check", expected: "café ✓ \u{2028}", observed: "SQLSTATE 42501",
                passed: false),
            ProbeResult(
                subjectKind: .function, subject: "public.f(integer)", persona: "ava", operation: nil, probe: "execute",
                expected: "allowed", observed: "allowed", passed: true),
        ]
        let written = MachineReports.json(report(results, plan: "plans/\"odd\" plan.yml"))
        #expect(written == (try encoded(report(results, plan: "plans/\"odd\" plan.yml"))))
        #expect(written.contains(#""failures" : 1"#), "\(written)")
    }

    @Test func anEmptyPlanToo() throws {
        #expect(MachineReports.json(report([])) == (try encoded(report([]))))
    }
}
