import Foundation
import Testing
import WardenKit
import TestSupport

/// A row two foreign keys away from its owner: `cards -> boards -> projects.owner_id`,
/// with every policy reading through the chain. The draft's setup gave each persona's
/// card "the first board there is" (ava's for both), and a probe's sample the first by
/// key (a random uuid: ava's in one run, ben's in the next): made-up DANGERs ("sees
/// other users' rows", "may insert other users' rows") that changed from run to run,
/// and a drafted plan that failed its own run. Now a referenced row is one whose parent
/// is the persona's, followed up to three tables. Found on a course-materials app.
@Suite struct DraftTwoHopReferenceTests {
    static let schema = """
        create table public.projects (
          id uuid primary key default gen_random_uuid(),
          owner_id uuid not null references auth.users on delete cascade, name text not null);
        create table public.boards (
          id uuid primary key default gen_random_uuid(),
          project_id uuid not null references public.projects on delete cascade, title text not null);
        create table public.cards (
          id uuid primary key default gen_random_uuid(),
          board_id uuid not null references public.boards on delete cascade, body text not null);
        alter table public.projects enable row level security;
        alter table public.boards enable row level security;
        alter table public.cards enable row level security;
        create policy "own projects" on public.projects for all to authenticated
          using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
        create policy "boards of own projects" on public.boards for all to authenticated
          using (exists (select 1 from public.projects p where p.id = project_id and p.owner_id = (select auth.uid())))
          with check (exists (select 1 from public.projects p where p.id = project_id and p.owner_id = (select auth.uid())));
        create policy "cards of own boards" on public.cards for all to authenticated
          using (exists (select 1 from public.boards b join public.projects p on p.id = b.project_id
                         where b.id = board_id and p.owner_id = (select auth.uid())))
          with check (exists (select 1 from public.boards b join public.projects p on p.id = b.project_id
                              where b.id = board_id and p.owner_id = (select auth.uid())));
        grant select, insert, update, delete on public.projects, public.boards, public.cards to authenticated;
        """

    @Test func eachPersonasCardIsOnItsOwnBoardEveryRun() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("twohop").project)
        try connection.execute(unsafeScript: Self.schema)
        let own = Access(select: .own, insert: .own, update: .own, delete: .own)
        for _ in 1...3 {
            let draft = try PlanDrafter(connection: connection).draft()
            let cards = try #require(draft.plan.relations.first { $0.name == "cards" })
            #expect(cards.access["ava"] == own, "\(draft.yaml)")
            #expect(cards.access["ben"] == own, "\(draft.yaml)")
            #expect(!draft.dangerCells.contains { $0.contains("cards") }, "\(draft.dangerCells)")
            #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
        }
        #expect(try connection.query("select count(*)::text from public.cards").scalar == "0")
    }
}
