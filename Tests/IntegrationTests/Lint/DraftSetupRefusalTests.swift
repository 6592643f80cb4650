import Foundation
import Testing
import WardenKit
import TestSupport

/// When the draft's setup cannot give a table a row (its sample breaks a check that no
/// value the draft tries passes, such as a nine-digit pattern that refuses the one text
/// made for it), the write cells it cannot
/// probe say why in their NOTE, with the server's error, instead of only asking for rows
/// the setup already tried to make (relayshanghai/relay-supa-club: `name ~ '^[a-zA-Z_]+$'`,
/// which `'draft'` now passes: DraftCheckedTextTests).
@Suite struct DraftSetupRefusalTests {
    @Test func aSetupRowRefusedByACheckIsNamedInTheNote() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("setuprefusal").project)
        try connection.execute(unsafeScript: """
            create table public.tags (id uuid primary key default gen_random_uuid(), name text not null check (name ~ '^[0-9]{9}$' and name <> '000000000'));
            alter table public.tags enable row level security;
            create table public.notes (id uuid primary key default gen_random_uuid(), body text not null);
            alter table public.notes enable row level security;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let tagNotes = draft.yaml.split(separator: "\n").filter { $0.contains("NOTE") && $0.contains("public.tags") }
        #expect(!tagNotes.isEmpty, "\(draft.yaml)")
        for note in tagNotes {
            #expect(note.contains(#"the draft's setup row was refused: new row for relation "tags" violates check constraint"#),
                    "\(note)")
        }
        // A table whose setup row was made has no such note.
        #expect(!draft.yaml.contains("public.notes; give"), "\(draft.yaml)")
        #expect(!draft.yaml.contains(#"relation "notes""#), "\(draft.yaml)")
    }

    /// The same on a table with a seeded row of no persona's: the NOTE asked to give the
    /// persona a row of its own, without saying the draft's row was refused (a travel
    /// agency's review trigger, a log's check across columns).
    @Test func aRefusedSetupRowBesideSeededRowsIsNamedInTheNote() throws {
        let draft = try DraftRealProjectShapesTests.draft("seededrefusal", """
            create table public.events (id bigint generated always as identity primary key,
              user_id uuid references auth.users (id), old_state text, new_state text,
              constraint events_change check (old_state is distinct from new_state));
            alter table public.events enable row level security;
            create policy "own" on public.events for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            insert into public.events (old_state, new_state) values ('a', 'b');
            """)
        let notes = draft.yaml.split(separator: "\n").filter { $0.contains("NOTE") && $0.contains("public.events") }
        #expect(!notes.isEmpty, "\(draft.yaml)")
        for note in notes {
            #expect(note.contains("does not hold for the one row of public.events"), "\(note)")
            #expect(note.contains(#"(the draft's setup row was refused: new row for relation "events" violates check constraint "events_change")"#),
                    "\(note)")
        }
    }
}
