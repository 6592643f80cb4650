import Foundation
import Testing
import WardenKit
import TestSupport

/// Plan mistakes that need the catalog are still reported before anything runs.
@Suite struct AccessPlanMistakeTests {
    private let header = """
        personas:
          anon: { role: anon }
          ava: { role: authenticated, email: ava@example.com }
        relations:

        """

    private func runPlan(_ text: String, on connection: Connection) throws -> AccessPlanReport {
        let plan = try AccessPlanParser(file: "plan.yml").parse(text)
        return try AccessPlanRunner(connection: connection, plan: plan).run()
    }

    private func database() throws -> Connection {
        let connection = try Connection(TestCluster.newDatabase("plan"))
        _ = try SupabaseCompat.bootstrap(connection)
        try connection.execute("create table public.note (id int generated always as identity primary key, body text not null)")
        return connection
    }

    @Test func reportsAnUnknownRelation() throws {
        let connection = try database()
        let error = try #require(throws: AccessPlanError.self) {
            try runPlan(header + "  notes:\n    sample: { body: \"'x'\" }\n    access: { ava: read }\n", on: connection)
        }
        #expect(error.line == 5)
        #expect(error.message.contains("unknown relation public.notes"))
        #expect(try connection.query("select count(*) from auth.users").scalar == "0")
    }

    @Test func reportsAnUnknownSampleColumn() throws {
        let connection = try database()
        let error = try #require(throws: AccessPlanError.self) {
            try runPlan(header + "  note:\n    sample: { text: \"'x'\" }\n    access: { ava: read }\n", on: connection)
        }
        #expect(error.message.contains("unknown column 'text'"))
    }

    @Test func reportsAMissingInsertSample() throws {
        let connection = try database()
        let error = try #require(throws: AccessPlanError.self) {
            try runPlan(header + "  note:\n    access: { ava: read }\n", on: connection)
        }
        #expect(error.line == 5)
        #expect(error.message.contains("needs a 'sample'"))
    }

    @Test func reportsARelationPlannedTwice() throws {
        let connection = try database()
        let text = header + "  note:\n    sample: { body: \"'x'\" }\n    access: { ava: read }\n"
            + "  public.note:\n    sample: { body: \"'y'\" }\n    access: { ava: read }\n"
        let error = try #require(throws: AccessPlanError.self) { try runPlan(text, on: connection) }
        #expect(error.line == 8)
        #expect(error.message == "relation public.note is already planned at line 5")
    }

    @Test func reportsAnUnknownFunction() throws {
        let connection = try database()
        let text = header + "  note:\n    sample: { body: \"'x'\" }\n    access: { ava: read }\nfunctions:\n  nothing_here(): { ava: execute }\n"
        let error = try #require(throws: AccessPlanError.self) { try runPlan(text, on: connection) }
        #expect(error.line == 9)
        #expect(error.message.contains("unknown function public.nothing_here()"))
    }

    @Test func provesASmallPlanAndReportsInEveryFormat() throws {
        let connection = try database()
        try connection.execute("insert into public.note (body) values ('hello')")
        // note has RLS off, so authenticated can write: the plan says read only.
        let report = try runPlan(header + "  note:\n    sample: { body: \"'x'\" }\n    access: { ava: read }\n", on: connection)
        #expect(!report.passed)
        #expect(report.failures.map(\.name).contains("ava · public.note · insert a row"))
        #expect(report.failures.map(\.name).contains("anon · public.note · select"))

        let json = MachineReports.json(report)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(decoded?["passed"] as? Bool == false)
        #expect(decoded?["probes"] as? Int == report.results.count)

        let tap = MachineReports.tap(report)
        #expect(tap.hasPrefix("TAP version 13\n1..\(report.results.count)\n"))
        #expect(tap.contains("not ok"))

        let junit = MachineReports.junit(report)
        #expect(junit.contains("failures=\"\(report.failures.count)\""))
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == report.results.count)

        let matrix = MatrixReport(report).render()
        #expect(matrix.contains("public.note"))
        #expect(matrix.contains("Failures:"))
    }
}
