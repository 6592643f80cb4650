import Testing
import WardenKit

/// Setup rows made one persona at a time, with each persona's claims, because a
/// trigger of the table reads the signed-in user (`tablesWithUserReadingTriggers`).
@Suite struct DraftPerPersonaSetupTests {
    /// A unique column's per-persona value: `row_number()` over a one-user select was 1
    /// for both, ben's row collided and was dropped, and ava's read of the only row was
    /// "all", a made-up DANGER on a private documents table (a coaching app, round
    /// thirty-four).
    @Test func aUniqueColumnGetsEachPersonasOwnValue() throws {
        let draft = try DraftRealProjectShapesTests.draft("perpersonaunique", """
            create table public.docs (
              id uuid primary key default gen_random_uuid(), user_id uuid not null references auth.users,
              path text not null unique);
            alter table public.docs enable row level security;
            create policy docs_own on public.docs for all using (user_id = auth.uid()) with check (user_id = auth.uid());
            create function public.docs_stamp() returns trigger language plpgsql as $$
            begin
              if auth.uid() is null then raise exception 'sign in first'; end if;
              return new;
            end $$;
            create trigger docs_stamp before insert on public.docs for each row execute function public.docs_stamp();
            """)
        let docs = try #require(draft.plan.relations.first { $0.name == "docs" })
        #expect(docs.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(docs.access["ben"]?.select == .own, "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
    }
}
