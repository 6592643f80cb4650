import Testing
import WardenKit

/// "Insert another user's row" where the row also points at a parent row of its
/// writer's: a notes app's insert policy checked only that the board was the writer's,
/// so ava could post a note in ben's name into her own board (it then showed as ben's,
/// and only ben could edit or delete it). The probe sent ben's whole sample, his board
/// included, which the policy refused, and `dev` showed `insert: own` (round
/// thirty-four).
@Suite struct DraftOthersRowInOwnParentTests {
    static func schema(insertCheck: String) -> String {
        """
        create table public.boards (id uuid primary key default gen_random_uuid(), owner_id uuid not null references auth.users (id));
        create table public.notes (
          id uuid primary key default gen_random_uuid(), board_id uuid not null references public.boards (id),
          author_id uuid not null references auth.users (id), body text);
        alter table public.boards enable row level security;
        alter table public.notes enable row level security;
        create policy boards_own on public.boards for all to authenticated
          using (owner_id = auth.uid()) with check (owner_id = auth.uid());
        create policy notes_read on public.notes for select to authenticated using (author_id = auth.uid());
        create policy notes_update on public.notes for update to authenticated using (author_id = auth.uid());
        create policy notes_insert on public.notes for insert to authenticated with check (\(insertCheck));
        """
    }

    static func otherRowProbe(_ draft: PlanDraft, _ persona: String) throws -> ProbeResult {
        try #require(draft.report.results.first {
            $0.subject == "public.notes" && $0.persona == persona && $0.probe == "insert another user's row"
        }, "\(draft.report.results.map(\.probe))")
    }

    @Test func anotherUsersRowInTheWritersOwnParentIsTried() throws {
        let draft = try DraftRealProjectShapesTests.draft("othersrowownparent", Self.schema(insertCheck: """
            exists (select 1 from public.boards b where b.id = board_id and b.owner_id = auth.uid())
            """))
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.access["ava"]?.insert == .all, "\(draft.yaml)")
        #expect(notes.access["ben"]?.insert == .all, "\(draft.yaml)")
        #expect(draft.dangerCells.contains { $0.hasPrefix("public.notes · ava: a signed-in user may insert other users' rows") },
                "\(draft.dangerCells)")
        #expect(try Self.otherRowProbe(draft, "ava").observed.hasSuffix("(ben's row with ava's own board_id)"))
        // Its own run, with `insert: all`, passes: the row in her own board goes in.
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A policy that checks the writer too refuses both rows: `own`, and the probe's
    /// outcome is the whole other row's refusal, as before.
    @Test func aPolicyCheckingTheWriterStillRefusesBoth() throws {
        let draft = try DraftRealProjectShapesTests.draft("othersrowownparentchecked", Self.schema(insertCheck: """
            author_id = auth.uid() and exists (select 1 from public.boards b where b.id = board_id and b.owner_id = auth.uid())
            """))
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.access["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(try Self.otherRowProbe(draft, "ava").observed.hasPrefix("denied (42501"))
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
