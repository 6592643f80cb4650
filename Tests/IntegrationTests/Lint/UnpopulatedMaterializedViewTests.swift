import Testing
import WardenKit
import TestSupport

/// A materialized view a migration makes `with no data` (a cache a job refreshes
/// later): computing its truth failed with 55000 and stopped the whole run, so `dev`
/// printed no matrix, no DANGER and no pgTAP result for the project (a school network's
/// LMS, round thirty-four). Its reads are now probed like any, and each shows what the
/// API answers.
@Suite struct UnpopulatedMaterializedViewTests {
    @Test func itsReadsShowTheServersAnswerAndTheRunGoesOn() throws {
        let draft = try DraftRealProjectShapesTests.draft("unpopulatedmatview", """
            create table public.roles (user_id uuid primary key references auth.users (id), role text not null default 'member');
            alter table public.roles enable row level security;
            create policy own_read on public.roles for select to authenticated using (user_id = auth.uid());
            create materialized view public.roles_cache as select user_id, role = 'admin' as is_admin from public.roles with no data;
            revoke all on public.roles_cache from anon;
            grant select on public.roles_cache to authenticated;
            """)
        func read(_ persona: String) -> String? {
            draft.report.results.first { $0.subject == "public.roles_cache" && $0.persona == persona && $0.probe == "select" }?.observed
        }
        #expect(read("ava") == #"error 55000: materialized view "roles_cache" has not been populated"#, "\(draft.report.results)")
        #expect(read("anon") == "none (permission denied)", "\(draft.report.results)")
        // The rest of the project is observed as before.
        let roles = try #require(draft.plan.relations.first { $0.name == "roles" })
        #expect(roles.access["ava"]?.select == .own, "\(draft.yaml)")
        let lines = ObservedAccessReport(draft, planFile: "plan.yml").linesAfterMatrix(sayingNoDangers: true)
        #expect(lines.contains { $0.hasPrefix("ERROR public.roles_cache · ") && $0.contains("has not been populated") }, "\(lines)")
    }

    /// A sample reading such a view (a helper behind a parent's owner rule did, in an
    /// LMS's samples): an insert's cell said "the plan's sample could not be evaluated",
    /// but the move of an own row to another user threw that error, and the whole run
    /// stopped (exit 1, round thirty-five). The move's cell says so too, and the run goes on.
    @Test func aSampleThatCannotBeEvaluatedIsTheMovesCellToReport() throws {
        let (_, project) = try TestCluster.newTwinDatabase("unpopulatedsample")
        let connection = try Connection(project)
        try connection.execute(unsafeScript: """
            create table public.notes (id bigint generated always as identity primary key,
              user_id uuid not null default auth.uid() references auth.users (id), body text not null);
            alter table public.notes enable row level security;
            create policy own on public.notes for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            create materialized view public.cache as select 'x'::text as body with no data;
            """)
        let plan = try AccessPlanParser(file: "plan.yml").parse("""
            personas:
              anon: { role: anon }
              ava: { role: authenticated, email: ava.plan@example.com }
              ben: { role: authenticated, email: ben.plan@example.com }
              service: { role: service_role }
            setup:
              - insert into public.notes (user_id, body) select id, 'seeded' from auth.users where email like '%.plan@example.com'
            relations:
              notes:
                owner: user_id = auth.uid()
                sample: { user_id: auth.uid(), body: "(select body from public.cache limit 1)" }
                access: { anon: none, ava: { select: own, insert: own, update: own, delete: own }, ben: { select: own, insert: own, update: own, delete: own }, service: all }
            """)
        let report = try AccessPlanRunner(connection: connection, plan: plan).run()
        let move = try #require(report.results.first { $0.persona == "ava" && $0.probe == "move own row to another user" },
                                "\(report.results)")
        #expect(move.observed.hasPrefix("the plan's sample could not be evaluated: materialized view \"cache\" has not been populated"),
                "\(move.observed)")
        #expect(report.results.contains { $0.persona == "ben" && $0.probe == "select" && $0.passed }, "\(report.results)")
    }
}
