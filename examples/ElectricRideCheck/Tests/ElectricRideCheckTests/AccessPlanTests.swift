import Foundation
import Testing
import WardenKit

/// The repository root, which holds Electric Ride's migrations, seeds and plan.
let electricRide = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// The whole public API, as an app's own test suite uses it: a scratch database,
/// provisioning, migrations up and down, the proof, typed results and a rendered report.
@Test func electricRideHoldsItsAccessPlan() throws {
    let project = Project(directory: electricRide)
    let database = try ScratchDatabase(label: "electric_ride")
    defer { try? database.drop() }
    let connection = try database.connect()

    // Provision: the Supabase twin, every migration, the seeds.
    let summary = try project.provision(on: connection)
    #expect(summary.migrations.command == .up)
    #expect(summary.migrations.steps.allSatisfy { $0.direction == .up && $0.duration != nil })

    // Migrations as values: status, then one down and up again.
    let migrations = try project.migrations()
    #expect(try migrations.status(on: connection).outcome == .upToDate)
    let down = try migrations.down(.steps(1), on: connection)
    #expect(down.command == .down && down.steps.count == 1)
    let latest = try #require(down.steps.first)
    let status = try migrations.status(on: connection)
    #expect(status.outcome == .pending)
    #expect(status.entries.last?.state == .pending && status.entries.last?.version == latest.version)
    let up = try migrations.up(on: connection)
    #expect(up.steps.map(\.version) == [latest.version])
    // Redo: the newest migration rolled back and applied again, under one lock.
    let redo = try migrations.redo(on: connection)
    #expect(redo.command == .redo && redo.steps.map(\.direction) == [.down, .up])

    // SQL through the one safe way in: interpolated values are bound.
    let hostile = "'); drop table public.listing; --"
    #expect(try connection.query("select \(hostile)::text").scalar == hostile)
    #expect(try connection.query("select to_regclass(\("public.listing"))::text").scalar == "listing")

    // The proof, its typed results, and a report.
    let plan = try project.accessPlan()
    let report = try plan.prove(on: connection, limits: AccessPlanLimits(statementTimeout: .seconds(20)))
    #expect(report.results.count > 100)
    #expect(report.failures.isEmpty, "\(report.failures)")
    #expect(report.access["public.saved"]?["anon"]?.select == .nothing)
    let matrix = try report.rendered(as: .matrix)
    #expect(matrix.contains("public.saved"))
    #expect(try report.rendered(as: .junit).hasPrefix("<?xml"))
}

/// Errors carry a category (what the CLI turns into its exit status).
@Test func aWrongMigrationsFolderIsBadInput() throws {
    let error = try #require(throws: MigrationInputError.self) {
        try Migrations(directory: URL(fileURLWithPath: "/no/such/folder"))
    }
    #expect(error.category == .badInput)
}

/// The async overloads open their own connection on a thread of their own.
@Test func theAsyncAPITakesSettingsNotAConnection() async throws {
    let project = Project(directory: electricRide)
    let database = try ScratchDatabase(label: "electric_ride_async")
    defer { try? database.drop() }
    try await project.provision(connectingTo: database.settings)
    let report = try await project.accessPlan().prove(connectingTo: database.settings)
    #expect(report.passed)
}
