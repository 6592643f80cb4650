import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A read that the API would answer with an SQL error (a policy that recurses into its
/// own table, 42P17) is an observation of its cell, not the end of the run: the plan's
/// cell fails with the error, and the plan-less run lists it.
@Suite struct PolicyErrorTests {
    static let migrations = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/RecursivePolicy/migrations")

    @Test func aRecursivePolicyFailsItsCellsAndTheRunGoesOn() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let plan = try AccessPlanParser(file: "members.yml").parse("""
            schemas: [public]
            personas:
              anon: {role: anon}
              ava: {role: authenticated, email: ava@example.com}
              ben: {role: authenticated, email: ben@example.com}
            relations:
              public.members:
                owner: user_id = auth.uid()
                sample: {team_id: "1", user_id: auth.uid()}
                access:
                  anon: none
                  authenticated: {select: own, insert: own}
            """)
        let report = try AccessPlanRunner(connection: connection, plan: plan).run()
        let reads = report.results.filter { $0.probe == "select" && $0.persona != "anon" }
        #expect(reads.count == 2)
        for read in reads {
            #expect(!read.passed)
            #expect(read.observed.hasPrefix("error 42P17: infinite recursion detected in policy for relation \"members\""), "\(read.observed)")
            #expect(read.expected == "own (0 rows)")
        }
        // The table has no rows at all (no setup), so anon's read of none proves nothing.
        let anonRead = try #require(report.results.first { $0.persona == "anon" && $0.probe == "select" })
        #expect(!anonRead.passed && anonRead.observed.hasPrefix("cannot probe: public.members has no rows at all"), "\(anonRead.observed)")
    }

    @Test func thePlanlessRunListsTheErrorsAndFinishes() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let url = try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: "postgres")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recursive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(result.status == 0, "\(result.all)")
        // The setup gives each persona a row (user_id defaults to auth.uid(): the persona), so
        // updates and deletes meet the recursive policy too; the user column is in the
        // sample, so the move to another user is tried as well.
        #expect(result.standardOutput.contains(
            "ERROR public.members · select as ava, update own row as ava, update another user's row as ava, "
                + "move own row to another user as ava, delete own row as ava, delete another user's row as ava, select as ben, "),
                "\(result.standardOutput)")
        #expect(result.standardOutput.contains("error 42P17: infinite recursion detected in policy for relation \"members\""))
        // Not a bare "no dangers found": those cells were not observed.
        #expect(!result.standardOutput.contains("no dangers found\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("no dangers found in what could be observed: what the ERROR lines name could not be"))
    }
}
