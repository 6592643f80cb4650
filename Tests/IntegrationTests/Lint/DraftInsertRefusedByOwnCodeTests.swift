import Foundation
import Testing
import WardenKit
import TestSupport

/// An insert the project's own code refused (a trigger's `raise exception`) is drafted
/// "none", with a note saying so: the sample's values may be what the code refuses (a
/// listing's places in two countries; round thirty-eight), where the cell alone said
/// sellers could not insert.
@Suite struct DraftInsertRefusedByOwnCodeTests {
    @Test func theRefusalIsNoted() throws {
        let draft = try DraftRealProjectShapesTests.draft("owncodeinsert", """
            create table public.wishes (id uuid primary key default gen_random_uuid(),
              user_id uuid not null default auth.uid() references auth.users (id), item text not null);
            alter table public.wishes enable row level security;
            create policy "own" on public.wishes for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            create function public.one_wish() returns trigger language plpgsql set search_path = '' as $$
            begin
              if exists (select 1 from public.wishes w where w.user_id = new.user_id) then raise exception 'only one wish per user'; end if;
              return new;
            end $$;
            create trigger one_wish before insert on public.wishes for each row execute function public.one_wish();
            """)
        let wishes = try #require(draft.plan.relations.first { $0.name == "wishes" })
        #expect(wishes.access["ava"]?.insert == .nothing, "\(draft.yaml)")
        #expect(draft.yaml.contains("insert own row: refused by the database's own code (P0001: only one wish per user): "
            + "no row was inserted; the sample's values may be what the code refuses"), "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
