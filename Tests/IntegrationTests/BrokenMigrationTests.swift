import Foundation
import Testing
import WardenKit
import TestSupport

/// The runner must catch real mistakes: each case applies a deliberately broken copy
/// of Electric Ride's migrations and expects the run to fail on the right cell.
@Suite struct BrokenMigrationTests {
    struct Mistake: Sendable, CustomStringConvertible {
        var description: String
        var file: String
        var target: String
        var replacement: String
        /// Failing result names that must be reported (others may fail too).
        var mustFail: [String]
    }

    static let mistakes: [Mistake] = [
        Mistake(
            description: "saved policy with using (true)", file: "add_saved_policy",
            target: "  using (\n    patron_id in (\n      select p.id from public.patron p where p.user_id = (select auth.uid())\n    )\n  )\n",
            replacement: "  using (true)\n",
            // (WITH CHECK still stops updates of others' rows, so that cell holds.)
            mustFail: ["ava · public.saved · select",
                       "ava · public.saved · delete another user's row", "ava · public.saved_listings · select"]),
        Mistake(
            description: "listings_with_details still granted to anon", file: "create_listing_views",
            target: "revoke all on public.listings_with_details, public.saved_listings from anon;",
            replacement: "revoke all on public.saved_listings from anon;",
            mustFail: ["anon · public.listings_with_details · select"]),
        Mistake(
            description: "count_of_vehicles_by_brand exposing another column", file: "create_count_of_vehicles_by_brand",
            target: "count(*)      as vehicles_available",
            replacement: "count(*) as vehicles_available, min(l.price) as cheapest",
            mustFail: ["public.count_of_vehicles_by_brand · columns"]),
        Mistake(
            description: "delete_current_user executable by anon", file: "create_delete_current_user",
            target: "grant execute on function public.delete_current_user() to authenticated;",
            replacement: "grant execute on function public.delete_current_user() to authenticated, anon;",
            // (Calling it as anon still fails, with the function's own 42501; the
            // privilege cell is what catches the grant.)
            mustFail: ["anon · public.delete_current_user() · execute"]),
        Mistake(
            description: "saved left with RLS disabled", file: "enable_row_level_security",
            target: "alter table public.saved enable row level security;",
            replacement: "",
            mustFail: ["ava · public.saved · select", "anon · public.saved · select"]),
        Mistake(
            description: "the patron insert policy without its check", file: "add_patron_insert_policy",
            target: "  with check (\n    user_id = (select auth.uid())\n    and email_address = (select auth.email())\n  );",
            replacement: "  with check (true);",
            mustFail: ["ava · public.patron · insert another user's row",
                       "ava · a user may not create a patron row with another email · check"]),
    ]

    @Test(arguments: mistakes)
    func theRunnerCatches(_ mistake: Mistake) throws {
        let folder = try ElectricRide.brokenCopy(file: mistake.file, replacing: mistake.target, with: mistake.replacement)
        defer { try? FileManager.default.removeItem(at: folder) }
        let connection = try ElectricRide.database(migrations: folder)
        let plan = try AccessPlanParser.load(path: ElectricRide.planPath)
        let report = try AccessPlanRunner(connection: connection, plan: plan).run()
        let failed = Set(report.failures.map(\.name))
        #expect(!report.passed)
        for name in mistake.mustFail {
            #expect(failed.contains(name), "\(mistake): expected '\(name)' to fail; failures: \(failed.sorted())")
        }
    }
}
