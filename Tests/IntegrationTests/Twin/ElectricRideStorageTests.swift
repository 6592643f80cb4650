import Testing
import WardenKit
import TestSupport

/// Electric Ride's vehicle-photos bucket under its access plan, on the twin as postgres.
@Suite struct ElectricRideStorageTests {
    private func run(_ connection: Connection) throws -> AccessPlanReport {
        try AccessPlanRunner(connection: connection, plan: AccessPlanParser.load(path: ElectricRide.planPath)).run()
    }

    @Test func thePlanProvesThePhotoRules() throws {
        let connection = try ElectricRide.database()
        let report = try run(connection)
        #expect(report.failures.map(\.name) == [])
        #expect(report.results.contains { $0.subject == "storage.objects" && $0.probe == "delete own row" && $0.passed })
    }

    @Test(arguments: [
        ("Sellers can delete their own photos", "storage.objects", "delete own row"),
        ("Sellers can upload photos to their own folder", "storage.objects", "insert own row"),
        ("Anyone can see photos of listings on sale", "storage.objects", "select"),
    ])
    func thePlanNoticesAMissingPhotoPolicy(_ policy: String, _ subject: String, _ probe: String) throws {
        let connection = try ElectricRide.database()
        try connection.execute("drop policy \(identifier: policy) on storage.objects")
        let failures = try run(connection).results.filter { !$0.passed }
        #expect(failures.contains { $0.subject == subject && $0.probe == probe }, "\(failures.map(\.probe))")
    }

    @Test func aSellerCannotWriteIntoAnotherSellersFolder() throws {
        let connection = try ElectricRide.database()
        try connection.execute(
            """
            drop policy "Sellers can upload photos to their own folder" on storage.objects;
            create policy "Sellers can upload photos to their own folder" on storage.objects
              for insert to authenticated with check (bucket_id = 'vehicle-photos');
            """)
        let failures = try run(connection).results.filter { !$0.passed }
        #expect(failures.contains { $0.subject == "storage.objects" && $0.probe == "insert another user's row" })
    }
}
