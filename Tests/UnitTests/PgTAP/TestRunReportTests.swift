import Foundation
import Testing
@testable import WardenKit

/// The pgTAP part of every report format, without a server.
@Suite struct TestRunReportTests {
    private let report = TestRunReport(accessPlan: nil, plan: nil, suites: [
        TestSuiteResult(kind: "pgTAP", file: "supabase/tests/a.sql", cases: [
            TestCaseResult(number: 1, description: "holds", line: 3, status: .passed),
            TestCaseResult(number: 2, description: "x < y & \"z\"", line: 4, status: .failed, diagnostics: ["have: 1", "want: 2"]),
            TestCaseResult(number: 3, description: "", line: 5, status: .skipped, reason: "later"),
        ], duration: .milliseconds(5)),
        TestSuiteResult(kind: "pgTAP", file: "supabase/tests/b/c.pg", cases: [
            TestCaseResult(number: 1, description: "fine", line: 2, status: .passed),
        ], duration: .milliseconds(2)),
    ])

    @Test func junitHasASuitePerFileAndACasePerAssertion() {
        let xml = report.junit()
        #expect(xml.contains(#"<testsuites name="pgwarden pgTAP" tests="4" failures="1" skipped="1""#))
        #expect(xml.contains(#"<testsuite name="supabase/tests/a.sql" tests="3" failures="1" errors="0" skipped="1""#))
        #expect(xml.contains(#"name="2 - x &lt; y &amp; &quot;z&quot;" file="supabase/tests/a.sql" line="4">"#))
        #expect(xml.contains("have: 1&#10;want: 2</failure>"))
        #expect(xml.contains(#"<skipped message="SKIP later"/>"#))
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 4)
    }

    @Test func tapNumbersEveryAssertionAndKeepsDirectives() {
        let lines = report.tap().components(separatedBy: "\n")
        #expect(lines.prefix(2) == ["TAP version 13", "1..4"])
        #expect(lines.contains("not ok 2 - supabase/tests/a.sql · 2 - x < y & \"z\""))
        #expect(lines.contains("ok 3 - supabase/tests/a.sql · 3 # SKIP later"))
        #expect(lines.contains("ok 4 - supabase/tests/b/c.pg · 1 - fine"))
        #expect(lines.contains("  line: 4"))
    }

    @Test func jsonListsFilesAndCases() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect(document["passed"] as? Bool == false)
        let files = try #require(document["pgtap"] as? [[String: Any]])
        #expect(files.map { $0["file"] as? String } == ["supabase/tests/a.sql", "supabase/tests/b/c.pg"])
        let cases = try #require(files[0]["cases"] as? [[String: Any]])
        #expect(cases.map { $0["status"] as? String } == ["passed", "failed", "skipped"])
        #expect(cases[1]["line"] as? Int == 4)
        #expect(cases[1]["diagnostics"] as? [String] == ["have: 1", "want: 2"])
    }

    @Test func textMarkdownAndAnnotationsNameTheFailingAssertion() {
        #expect(report.text().contains("  ✗ supabase/tests/a.sql:4: 2 - x < y & \"z\""))
        #expect(report.text().hasSuffix("pgTAP: 2 files, 4 assertions, 2 passed, 1 failed, 1 skipped or todo (7 ms)"))
        #expect(report.markdown().contains("| 2 - x < y & \"z\" | `supabase/tests/a.sql:4` | have: 1; want: 2 |"))
        #expect(report.githubAnnotations()
            == "::error file=supabase/tests/a.sql,line=4,title=pgTAP%3A 2 - x < y & \"z\"::2 - x < y & \"z\"%0Ahave: 1%0Awant: 2")
        #expect(!report.passed)
    }

    /// A file's SQL error gives its detail and hint once, under the file; the summary
    /// of failures names the error alone.
    @Test func theSummaryOfFailuresLeavesTheHintToTheFilesLine() {
        let error = "SQL error at line 2: 0A000: extension \"postgis\" is not available (detail: Could not open it.) "
            + "(hint: install it on the server)"
        let report = TestRunReport(accessPlan: nil, plan: nil, suites: [
            TestSuiteResult(kind: "pgTAP", file: "supabase/tests/a.sql", cases: [
                TestCaseResult(number: nil, description: error, line: 2, status: .failed),
            ], duration: .milliseconds(1)),
        ])
        let text = report.text()
        #expect(text.components(separatedBy: "install it on the server").count == 2, "\(text)")
        #expect(text.contains("  ✗ supabase/tests/a.sql:2: SQL error at line 2: 0A000: extension \"postgis\" is not available "
            + "(detail and hint above)"), "\(text)")
    }

    @Test func theSummaryCountsOneFileAndOneAssertionInTheSingular() {
        let one = TestRunReport(accessPlan: nil, plan: nil, suites: [
            TestSuiteResult(kind: "pgTAP", file: "supabase/tests/a.sql", cases: [
                TestCaseResult(number: 1, description: "holds", line: 3, status: .passed),
            ], duration: .milliseconds(1)),
        ])
        #expect(one.suiteSummary == "pgTAP: 1 file, 1 assertion, 1 passed, 0 failed, 0 skipped or todo (1 ms)")
    }

    @Test func aServerWithoutPgTAPIsToldWhichPackageToInstall() {
        #expect(PgTAPError.notInstalled(package: "postgresql-15-pgtap").description
            == "this server has no pgTAP, which the test files need: install it on the server (Debian/Ubuntu: apt-get install postgresql-15-pgtap)")
    }
}
