import Foundation
import Testing
import WardenKit
import TestSupport

/// When the draft's setup cannot give a table a row (its sample breaks a check that no
/// value the draft tries passes, such as a nine-digit pattern), the write cells it cannot
/// probe say why in their NOTE, with the server's error, instead of only asking for rows
/// the setup already tried to make (relayshanghai/relay-supa-club: `name ~ '^[a-zA-Z_]+$'`,
/// which `'draft'` now passes: DraftCheckedTextTests).
@Suite struct DraftSetupRefusalTests {
    @Test func aSetupRowRefusedByACheckIsNamedInTheNote() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("setuprefusal").project)
        try connection.execute(unsafeScript: """
            create table public.tags (id uuid primary key default gen_random_uuid(), name text not null check (name ~ '^[0-9]{9}$'));
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
}
