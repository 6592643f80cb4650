import Foundation
import Testing
import WardenKit

/// The repository root, which holds Electric Ride's migrations, seeds and plan.
let electricRide = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

@Test func electricRideHoldsItsAccessPlan() throws {
    let project = Project(directory: electricRide)
    let database = try ScratchDatabase(label: "electric_ride")
    let connection = try database.connect()
    try project.provision(on: connection)
    let report = try project.accessPlan().prove(on: connection)
    #expect(report.results.count > 100)
    #expect(report.failures.isEmpty, "\(report.failures)")
}
