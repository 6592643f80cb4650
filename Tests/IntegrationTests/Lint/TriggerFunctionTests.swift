import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A function that returns `trigger` is no API's to call: PostgREST leaves it out of
/// its schema cache (`SchemaCache.hs`: `t.oid <> 'trigger'::regtype`) and a direct
/// call raises 0A000. So a plan need not list it, the draft does not, and it gets no
/// "anon may execute this security definer function" DANGER; a plan that lists it
/// still has it probed.
@Suite struct TriggerFunctionTests {
    static let migrations = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/TriggerFunction/migrations")

    @Test func theDraftLeavesTriggerFunctionsOutAndItsPlanHolds() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.plan.functions.map(\.signature) == ["public.profile_count()"], "\(draft.yaml)")
        #expect(!draft.yaml.contains("handle_new_user"), "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("handle_new_user") }, "\(draft.dangerCells)")
        // The RPC is still a danger: anon may call a security definer function.
        #expect(draft.dangerCells.contains { $0.contains("public.profile_count() · anon") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.yaml)")
    }

    @Test func aPlanMayLeaveATriggerFunctionOutOrListIt() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trigger-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(functions: String) throws -> AccessPlanReport {
            let path = folder.appendingPathComponent("plan-\(UUID().uuidString).yml").path
            try """
                schemas: [public]
                personas:
                  anon: { role: anon }
                  ava: { role: authenticated, email: ava.trigger@example.com }
                  ben: { role: authenticated, email: ben.trigger@example.com }
                relations:
                  profiles:
                    owner: id = auth.uid()
                    sample: { id: auth.uid(), handle: "'x'" }
                    access: { anon: none, authenticated: { select: own } }
                functions:
                \(functions)
                """.write(toFile: path, atomically: true, encoding: .utf8)
            return try AccessPlanRunner(connection: connection, plan: AccessPlanParser.load(path: path)).run()
        }
        let without = try run(functions: "  profile_count(): { anon: execute, authenticated: execute }")
        #expect(without.failures.map(\.name) == [])
        #expect(!without.results.contains { $0.subject.contains("handle_new_user") })
        let with = try run(functions: """
              profile_count(): { anon: execute, authenticated: execute }
              handle_new_user(): { anon: execute, authenticated: execute }
            """)
        #expect(with.failures.map(\.name) == [])
        #expect(with.results.contains { $0.name == "anon · public.handle_new_user() · execute" })
    }
}
