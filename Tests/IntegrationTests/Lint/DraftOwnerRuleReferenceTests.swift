import Foundation
import Testing
import WardenKit
import TestSupport

/// A child table owned through a nullable foreign key (`synonyms.analysis_id` ->
/// `analyses`, whose `user_id` is the user): its policy reads `analysis_id in (select id
/// from analyses where user_id = auth.uid())`. The draft's sample gave only the columns
/// an insert must give, so the setup rows had no analysis, belonged to no one, and every
/// own-row probe of the table "could not be observed" (a real template had eight such
/// tables). The sample now also gives the foreign keys the owner rule reads: each persona
/// gets a row under its own analysis, and the draft states and passes every cell.
@Suite struct DraftOwnerRuleReferenceTests {
    static let schema = """
        create table public.analyses (
          id uuid primary key default gen_random_uuid(),
          user_id uuid not null references auth.users on delete cascade);
        alter table public.analyses enable row level security;
        create policy "own analyses" on public.analyses for all to authenticated
          using (user_id = auth.uid()) with check (user_id = auth.uid());
        create table public.synonyms (
          id uuid primary key default gen_random_uuid(),
          analysis_id uuid references public.analyses on delete cascade,
          word text not null);
        alter table public.synonyms enable row level security;
        create policy "own synonyms" on public.synonyms for all to authenticated
          using (analysis_id in (select a.id from public.analyses a where a.user_id = auth.uid()))
          with check (analysis_id in (select a.id from public.analyses a where a.user_id = auth.uid()));
        """

    @Test func eachPersonaGetsARowUnderItsOwnParent() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("ownerref").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })\n\(draft.yaml)")
        #expect(!draft.yaml.contains("# NOTE"), "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        let synonyms = try #require(draft.plan.relations.first { $0.name == "synonyms" })
        #expect(synonyms.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(synonyms.access["ben"] == synonyms.access["ava"], "\(draft.yaml)")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.passed, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        #expect(try connection.query("select count(*)::text from public.synonyms").scalar == "0")
    }
}
