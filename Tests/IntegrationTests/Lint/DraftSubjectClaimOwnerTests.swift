import Testing
import WardenKit
import TestSupport

/// Projects signed in through a third-party provider key their rows by the token's
/// `sub` claim as text (`user_id text default auth.jwt() ->> 'sub'`), and their policies
/// compare with it in the shapes Supabase's guides write. No owner rule was found in
/// them: every cell was `none` or `all`, no row was "another user's", and a table every
/// signed-in user may read showed no DANGER (a learning app's fourteen tables, round
/// thirty-six). The claim is read as the user's id in text (`auth.uid()::text`).
@Suite struct DraftSubjectClaimOwnerTests {
    @Test func aTextOwnerComparedWithTheSubjectClaimIsTheOwnerColumn() throws {
        let draft = try DraftRealProjectShapesTests.draft("subclaim", """
            create table public.plans (id uuid primary key default gen_random_uuid(),
              user_id text not null default (auth.jwt() ->> 'sub'), title text not null default 't');
            create table public.steps (id uuid primary key default gen_random_uuid(),
              owner text not null default (auth.jwt() ->> 'sub'), body text not null default 'b');
            create table public.notes (id uuid primary key default gen_random_uuid(),
              author text not null, body text not null default 'n');
            alter table public.plans enable row level security;
            alter table public.steps enable row level security;
            alter table public.notes enable row level security;
            create policy plans_own on public.plans for all to authenticated
              using ((select auth.jwt() ->> 'sub') = user_id) with check ((select auth.jwt() ->> 'sub') = user_id);
            create policy steps_own on public.steps for all to authenticated
              using (owner = current_setting('request.jwt.claims', true)::json ->> 'sub')
              with check (owner = current_setting('request.jwt.claims', true)::json ->> 'sub');
            create policy notes_read on public.notes for select to authenticated using (true);
            create policy notes_write on public.notes for insert to authenticated with check (author = (auth.jwt() ->> 'sub'));
            create policy notes_change on public.notes for update to authenticated using (author = (select auth.jwt()) ->> 'sub');
            """)
        let own = Access(select: .own, insert: .own, update: .own, delete: .own)
        for name in ["plans", "steps"] {
            let relation = try #require(draft.plan.relations.first { $0.name == name })
            #expect(relation.owner != nil, "\(name): \(draft.yaml)")
            #expect(relation.access["ava"] == own, "\(name): \(draft.yaml)")
            #expect(relation.access["ben"] == own, "\(name): \(draft.yaml)")
        }
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.access["ava"] == Access(select: .all, insert: .own, update: .own, delete: .nothing), "\(draft.yaml)")
        #expect(draft.dangerCells.contains { $0.hasPrefix("public.notes") && $0.contains("sees other users' rows") },
                "\(draft.dangerCells)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
