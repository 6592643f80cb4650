import Foundation
import Testing
import WardenKit
import TestSupport

@Suite struct AccessPlanRunnerTests {
    private func run(_ connection: Connection, planPath: String = ElectricRide.planPath) throws -> AccessPlanReport {
        try AccessPlanRunner(connection: connection, plan: AccessPlanParser.load(path: planPath)).run()
    }

    @Test func electricRidesPlanHolds() throws {
        let connection = try ElectricRide.database()
        let report = try run(connection)
        #expect(report.failures.map(\.name) == [])
        #expect(report.results.count > 150)
        // The cells the issue names are among those proved.
        let names = Set(report.results.filter(\.passed).map(\.name))
        for name in [
            "anon · public.count_of_vehicles_by_brand · select",
            "anon · public.listings_with_details · select",
            "anon · public.saved_listings · select",
            "anon · public.delete_current_user() · execute",
            "anon · public.handle_new_user() · execute",
            "ava · public.saved · insert another user's row",
            "ava · public.saved · move own row to another user",
            "ava · public.patron · insert own row",
            "ava · public.patron · insert another user's row",
            "service · public.saved · select",
            "public.count_of_vehicles_by_brand · columns",
        ] {
            #expect(names.contains(name), "\(name) was not proved")
        }
    }

    @Test func aRunChangesNoRow() throws {
        let connection = try ElectricRide.database()
        let before = try DatabaseFingerprint.rows(connection)
        _ = try run(connection)
        #expect(try DatabaseFingerprint.rows(connection) == before)
        #expect(connection.transactionStatus == .idle)
    }

    @Test func aNewTableWithRLSDisabledFailsTheRun() throws {
        // Deny by default: a table the plan does not mention fails, RLS or not.
        let connection = try ElectricRide.database()
        try connection.execute("create table public.scratch_notes (id int primary key, body text); insert into public.scratch_notes values (1, 'x')")
        let report = try run(connection)
        #expect(report.failures.map(\.name) == ["public.scratch_notes · planned"])
    }

    @Test func seesTheDifferenceBetweenZeroRowsAndRefusal() throws {
        let connection = try ElectricRide.database()
        let report = try run(connection)
        let anonListing = report.results.first { $0.name == "anon · public.listing · select" }
        #expect(anonListing?.observed == "none (0 rows)")
        let anonView = report.results.first { $0.name == "anon · public.listings_with_details · select" }
        #expect(anonView?.observed == "none (permission denied)")
    }
}

/// Every row of every table in public, auth and pgwarden, as digests per table.
enum DatabaseFingerprint {
    static func rows(_ connection: Connection) throws -> [String: String] {
        let tables = try connection.query(
            """
            select format('%I.%I', n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname in ('public', 'auth', 'pgwarden') and c.relkind in ('r', 'p') order by 1
            """
        ).rows.compactMap { $0[0] }
        var digests: [String: String] = [:]
        for table in tables {
            digests[table] = try connection.query(
                "select count(*) || ':' || md5(coalesce(string_agg(to_jsonb(t)::text, ',' order by to_jsonb(t)::text), '')) from \(raw: table) t"
            ).scalar
        }
        return digests
    }
}
