import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A policy whose subquery names its own table (`... where team_id = teams.id`, as
/// PostgreSQL prints the policy back): the drafter takes it as the table's owner rule,
/// and every query that evaluates an owner rule reads the relation under its own name,
/// so the rule resolves there as it does in the policy (it crashed the plan-less run
/// with 42P01 when the relation was aliased).
@Suite struct PolicyNamesItsTableTests {
    static let migrations = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/PolicyNamesItsTable/migrations")

    @Test func draftTakesAPolicyNamingItsTableAsTheOwnerRule() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let draft = try PlanDrafter(connection: connection).draft()
        let teams = try #require(draft.plan.relations.first { $0.name == "teams" })
        #expect(teams.owner?.contains("teams.id") == true, "\(teams.owner ?? "no owner rule")")
        // The rule was evaluated: the truth and the probes of public.teams ran.
        let serviceReads = try #require(draft.report.results.first {
            $0.subject == "public.teams" && $0.persona == "service" && $0.probe == "select"
        })
        #expect(serviceReads.observed.hasPrefix("all ("), "\(serviceReads.observed)")
    }

    static let teamsPlan = """
            schemas: [public]
            personas:
              anon: {role: anon}
              ava: {role: authenticated, email: ava@example.com}
              ben: {role: authenticated, email: ben@example.com}
            setup:
              - |
                with team as (insert into public.teams (name) values ('ava''s team'), ('ben''s team') returning id, name)
                insert into public.members (team_id, user_id)
                select team.id, u.id from team join auth.users u
                  on u.email = case team.name when 'ava''s team' then 'ava@example.com' else 'ben@example.com' end
            relations:
              public.teams:
                owner: (select auth.uid()) in (select user_id from public.members m where m.team_id = teams.id)
                sample: {name: "'a team'"}
                access:
                  anon: none
                  authenticated: {select: own}
              public.members:
                owner: user_id = auth.uid()
                sample: {team_id: "(select min(id) from public.teams)", user_id: auth.uid()}
                access:
                  anon: none
                  authenticated: {select: own}
            """

    @Test func handWrittenOwnerRuleMayNameTheRelation() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let plan = try AccessPlanParser(file: "teams.yml").parse(Self.teamsPlan)
        let report = try AccessPlanRunner(connection: connection, plan: plan).run()
        #expect(report.passed, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        // Membership is not a column of the row: there is nothing to move a team by, and
        // as updating one's own team affects no row (no update policy), moving it is refused with it.
        let moves = report.results.filter { $0.subject == "public.teams" && $0.probe == "move own row to another user" }
        #expect(moves.count == 2)
        #expect(moves.allSatisfy { $0.observed.hasPrefix("refused, as updating the own row is (0 rows)") }, "\(moves.map(\.observed))")
        let seen = report.results.filter { $0.subject == "public.teams" && $0.probe == "select" && $0.persona != "anon" }
        #expect(seen.map(\.observed) == ["own (1 rows)", "own (1 rows)"], "\(seen.map(\.observed))")
    }

    /// When members may update their team, whether they can move it depends on what the
    /// owner rule reads: this one reads no column an update may write (teams.id is an
    /// identity), so no update of `teams` can give a team to another user, and the move
    /// is refused. A rule that also reads `name` leaves it a question the sample cannot
    /// ask (no ownership column): the cell says so and fails.
    @Test func aMoveWithNothingToMoveByDependsOnWhatTheOwnerRuleReads() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        try connection.execute("grant update on public.teams to authenticated")
        try connection.execute("""
            create policy "members update their teams" on public.teams for update to authenticated
              using ((select auth.uid()) in (select user_id from public.members where team_id = id))
            """)
        let updating = Self.teamsPlan.replacingOccurrences(
            of: "authenticated: {select: own}\n  public.members:", with: "authenticated: {select: own, update: own}\n  public.members:")
        let report = try AccessPlanRunner(connection: connection, plan: try AccessPlanParser(file: "teams.yml").parse(updating)).run()
        #expect(report.passed, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        let moves = report.results.filter { $0.subject == "public.teams" && $0.probe == "move own row to another user" }
        #expect(moves.count == 2 && moves.allSatisfy { $0.observed.hasPrefix("refused: the owner rule reads no column an update may write") },
                "\(moves.map(\.observed))")
        let readingName = updating.replacingOccurrences(
            of: "owner: (select auth.uid()) in", with: "owner: name is not null and (select auth.uid()) in")
        let again = try AccessPlanRunner(connection: connection, plan: try AccessPlanParser(file: "teams.yml").parse(readingName)).run()
        let failures = again.failures.map { "\($0.name): \($0.observed)" }
        #expect(failures == ["ava", "ben"].map {
            "\($0) · public.teams · move own row to another user: cannot probe: the sample gives both users the same values, so it names no ownership column"
        }, "\(failures)")
    }
}
