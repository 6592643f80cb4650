import Foundation
import Testing
import WardenKit
import TestSupport

/// `--format github` and `--format markdown` on the todo example without row-level
/// security: every failing cell is an annotation on its plan line, and the matrix
/// goes to the job summary.
@Suite struct CIReportTests {
    private let todo = ExampleProject(name: "todo")

    private func brokenTodoURL() throws -> (url: String, connection: Connection) {
        let connection = try todo.database(upTo: "20261122000100")
        return (try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? ""), connection)
    }

    @Test func githubFormatAnnotatesEveryFailureAndAppendsTheSummary() throws {
        let (url, _) = try brokenTodoURL()
        let summary = TestFolder.url("summary").appendingPathExtension("md")
        try "earlier step\n".write(to: summary, atomically: true, encoding: .utf8)
        let output = try PgwardenCLI.run(
            ["test", "--database-url", url, "--plan", "access-plan.yml", "--format", "github"],
            environment: ["GITHUB_STEP_SUMMARY": summary.path], directory: todo.root.path)
        #expect(output.status == 1)
        let annotations = output.standardOutput.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(annotations.count == 15)
        #expect(annotations.contains(
            "::error file=access-plan.yml,line=36,title=access plan%3A public.todos::anon · public.todos · select: expected none (0 rows or permission denied); observed all (9 rows)"))
        #expect(annotations.contains { $0.hasPrefix("::error file=access-plan.yml,line=54,title=access plan%3A searching by title finds only one's own items::pat · ") })
        #expect(output.standardOutput.contains("public.todos  ···· ✗"))
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        #expect(markdown.hasPrefix("earlier step\n### ❌ access plan access-plan.yml: 27 probes, 12 passed, 15 failed"))
        #expect(markdown.contains("| `public.todos` | `···· ✗` | `siud ✗` | `siud ✗` | `SIUD ✓` |"))
        #expect(markdown.contains("| anon · public.todos · select | none (0 rows or permission denied) | all (9 rows) |"))
    }

    @Test func githubFormatPrintsNoAnnotationWhenThePlanHolds() throws {
        let connection = try todo.database()
        let url = try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "")
        let output = try PgwardenCLI.run(["test", "--database-url", url, "--format", "github"], directory: todo.root.path)
        #expect(output.status == 0)
        #expect(!output.standardOutput.contains("::error"))
        #expect(output.standardOutput.contains("27 passed, 0 failed"))
    }

    @Test func markdownFormatIsTheTableAndTheFailures() throws {
        let (url, _) = try brokenTodoURL()
        let output = try PgwardenCLI.run(["test", "--database-url", url, "--format", "markdown"], directory: todo.root.path)
        #expect(output.status == 1)
        let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("### ❌ access plan") == true)
        #expect(lines.contains("| relation | anon | guest | pat | service |"))
        #expect(lines.filter { $0.hasPrefix("| ") && $0.contains(" · public.todos · ") }.count == 14)
        #expect(lines.contains("- ✗ check: searching by title finds only one's own items (as pat)"))
    }
}
