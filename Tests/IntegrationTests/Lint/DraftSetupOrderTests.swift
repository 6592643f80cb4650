import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// The drafted setup gives a table's rows after the rows its foreign keys point at: a
/// join table whose name sorts first still gets rows for both personas, so every cell
/// is probed and the draft passes on its own database.
@Suite struct DraftSetupOrderTests {
    static let migrations = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/JoinTableDraft/migrations")

    @Test func aJoinTableIsSetUpAfterBothOfItsSides() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.verified, "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        let setup = draft.plan.setup.joined(separator: "\n")
        let positions = ["public.\"Notes\"", "public.tags", "public.a_note_tags"].compactMap { setup.range(of: "insert into \($0)")?.lowerBound }
        #expect(positions.count == 3 && positions.last == positions.max(), "\(setup)")
        let links = try #require(draft.plan.relations.first { $0.name == "a_note_tags" })
        #expect(links.access["ava"]?.select == .own, "\(draft.yaml)")
    }

    @Test func theOrderPutsReferencedTablesFirstAndKeepsTheRest() {
        let references = ["a": ["c", "b"], "b": ["c"], "d": ["d"], "e": ["f"], "f": ["e"]]
        let order = DraftSetupOrder.ordered(["a", "b", "c", "d", "e", "f", "g"]) { references[$0] ?? [] }
        #expect(order == ["c", "b", "a", "d", "f", "e", "g"])
    }
}
