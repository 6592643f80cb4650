import Foundation
import Testing
import WardenKit
import TestSupport

/// examples/todo: its plan holds, and the tutorial's first state (no row-level
/// security) fails exactly where one user reaches another's items.
@Suite struct TodoExampleTests {
    private let todo = ExampleProject(name: "todo")

    @Test func planHolds() throws {
        let connection = try todo.database()
        let report = try todo.prove(on: connection)
        #expect(report.failingCells.isEmpty, "\(report.failingCells)")
        #expect(report.results.count == 27)
        // The anonymous persona was probed as the anonymous user it stands for.
        #expect(report.results.contains { $0.persona == "guest" && $0.probe == "select" && $0.observed == "own (2 rows)" })
        // The run left nothing behind: the seeds' two accounts and five items only.
        #expect(try connection.query("select count(*) from auth.users").scalar == "2")
        #expect(try connection.query("select count(*) from public.todos").scalar == "5")
    }

    @Test func theTableWithoutRowLevelSecurityFailsThePlan() throws {
        let connection = try todo.database(upTo: "20261122000100")
        let report = try todo.prove(on: connection)
        let table = "public.todos"
        var expected: Set<String> = [
            "anon · \(table) · select", "anon · \(table) · insert a row",
            "anon · \(table) · update a user's row", "anon · \(table) · delete a user's row",
            "pat · searching by title finds only one's own items · check",
        ]
        for persona in ["guest", "pat"] {
            expected.formUnion([
                "select", "insert another user's row", "update another user's row",
                "move own row to another user", "delete another user's row",
            ].map { "\(persona) · \(table) · \($0)" })
        }
        #expect(report.failingCells == expected)
        let anonSelect = try #require(report.failures.first { $0.persona == "anon" && $0.probe == "select" })
        #expect(anonSelect.observed == "all (9 rows)")
        #expect(!report.passed)
    }
}
