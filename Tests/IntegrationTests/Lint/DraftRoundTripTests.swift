import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// `plan draft` on real schemas: whatever it writes, `pgwarden test` accepts and
/// passes on the same database (functions with named, quoted, defaulted, variadic and
/// OUT parameters, overloads, mixed-case names, views on views, a table without a
/// primary key, enums, domains, a partitioned table; and Electric Ride).
@Suite struct DraftRoundTripTests {
    static let shapes = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/DraftSchema/migrations")

    @Test func draftOfEveryShapePassesTest() throws {
        let connection = try ElectricRide.database(migrations: Self.shapes, seeded: false)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.verified, "\(draft.yaml)")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.passed, "\(report.failures.map(\.name))")
        let signatures = Set(drafted.functions.map(\.signature))
        #expect(signatures == [
            "public.add(integer, integer)", "public.add(numeric, numeric)", #"public."Shout"(text)"#,
            "public.total(integer[])", "public.split_name(text)", "public.feelings(public.mood[])",
            "public.clip(public.short_text)",
        ])
        #expect(Set(drafted.relations.map(\.name)) == ["Trip Log", "readings", "events", "events_2026", "trip_titles", "Calm Trips"])
        let clip = try #require(drafted.functions.first { $0.signature == "public.clip(public.short_text)" })
        #expect(clip.execute["anon"] == false && clip.execute["ava"] == true)
    }

    @Test func planMayNameParametersAsPostgresPrintsThem() throws {
        let connection = try ElectricRide.database(migrations: Self.shapes, seeded: false)
        var plan = try AccessPlanParser(file: "draft.yml").parse(try PlanDrafter(connection: connection).draft().yaml)
        let index = try #require(plan.functions.firstIndex { $0.signature == "public.add(integer, integer)" })
        plan.functions[index].signature = "public.add(a integer, b integer)"
        let report = try AccessPlanRunner(connection: connection, plan: plan).run()
        #expect(report.passed, "\(report.failures.map(\.name))")
        #expect(report.functions.contains("public.add(integer, integer)"))
    }

    @Test func messagesAboutADraftedPlanNameTheDraftedPlanWithoutALine() throws {
        let connection = try ElectricRide.database(migrations: Self.shapes, seeded: false)
        var plan = try PlanDrafter(connection: connection).draft().plan
        var unknown = try #require(plan.functions.first)
        unknown.signature = "public.nope(integer)"
        plan.functions.append(unknown)
        #expect(plan.source == "the drafted plan")
        #expect {
            try AccessPlanRunner(connection: connection, plan: plan).run()
        } throws: { error in
            "\(error)" == "the drafted plan: unknown function public.nope(integer): no such function in an exposed schema"
        }
    }

    @Test func electricRideRoundTripsThroughTheExecutable() throws {
        let connection = try ElectricRide.database()
        let url = try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("draft-er-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("access-plan.yml").path
        let drafted = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", file])
        #expect(drafted.status == 0, "\(drafted.all)")
        let tested = try PgwardenCLI.run(["test", "--database-url", url, "--plan", file])
        #expect(tested.status == 0, "\(tested.all)")
    }
}
