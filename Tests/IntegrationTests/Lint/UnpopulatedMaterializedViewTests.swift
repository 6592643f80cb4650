import Testing
import WardenKit

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
}
