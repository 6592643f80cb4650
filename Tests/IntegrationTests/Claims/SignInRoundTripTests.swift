import Foundation
import Testing
import WardenKit
import TestSupport

/// Every signed-in persona's sign-in (its `auth.sessions`, `auth.mfa_amr_claims` and
/// `last_sign_in_at` rows) goes in one round trip, a unit each: a plan of four users
/// costs the round trips of a plan of one.
@Suite struct SignInRoundTripTests {
    private func plan(users: [String]) throws -> AccessPlan {
        let personas = users.map { "  \($0): { role: authenticated, email: \($0).trips@example.com }" }
        return try AccessPlanParser(file: "trips.yml").parse(
            """
            schemas: [public]
            personas:
            \(personas.joined(separator: "\n"))
            relations:
              note:
                sample: { body: "'probe'" }
                access: { authenticated: read }
            """)
    }

    @Test func fourUsersSignInInTheRoundTripsOfOne() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("trips").project)
        try connection.execute(
            """
            create table public.note (id bigint generated always as identity primary key, body text);
            alter table public.note enable row level security;
            create policy "everyone reads" on public.note for select to authenticated using (true);
            insert into public.note (body) values ('one')
            """)
        var trips: [Int] = []
        for users in [["ava"], ["ava", "ben", "cy", "dee"]] {
            let before = connection.roundTrips
            var runner = AccessPlanRunner(connection: connection, plan: try plan(users: users))
            runner.readsCatalogInBackground = false
            let report = try runner.run()
            #expect(report.failures.map(\.name) == [], "\(users)")
            trips.append(connection.roundTrips - before)
        }
        #expect(trips[0] == trips[1], "\(trips)")
        #expect(try connection.query("select count(*)::text from auth.sessions").scalar == "0")
    }
}
