import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A sample never names a column an insert may not give (GENERATED ALWAYS AS IDENTITY):
/// a table open to everyone is then seen open, and its cells are marked DANGER.
@Suite struct DraftIdentityColumnTests {
    static let migrations = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/IdentityOnlyTable/migrations")

    @Test func anOpenTableWithAnIdentityKeyIsSeenOpen() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let draft = try PlanDrafter(connection: connection).draft()
        let table = try #require(draft.plan.relations.first { $0.name == "guestbook" })
        #expect(table.sample.map(\.column) == ["note"], "\(draft.yaml)")
        #expect(table.access["anon"]?.insert == .all, "\(draft.yaml)")
        #expect(draft.dangerCells.contains { $0.contains("public.guestbook · anon") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.yaml)")
    }
}
