import Foundation
import Testing
import WardenKit
import TestSupport

/// An owner column of type text, compared with the user's id as text: `user_id =
/// auth.uid()::text` on a table, and Storage's `owner_id = (select auth.uid()::text)`
/// as Supabase's docs write it. The draft's rows and samples hold `auth.uid()::text`
/// there (they held `'Draft user_id'`, no one's, and each persona's own access was
/// drafted `none`); an upload cannot be another user's file where the rule reads
/// `owner_id`, which Storage writes from the caller's token.
@Suite struct DraftTextOwnerTests {
    static let schema = """
        create table public.notes (id bigint generated always as identity primary key, user_id text, body text);
        alter table public.notes enable row level security;
        create policy notes_own on public.notes for all to authenticated
          using (user_id = auth.uid()::text) with check (user_id = auth.uid()::text);
        insert into storage.buckets (id, name, public) values ('docs', 'docs', false);
        create policy docs_read_own on storage.objects for select to authenticated
          using (bucket_id = 'docs' and owner_id = (select auth.uid()::text));
        create policy docs_upload on storage.objects for insert to authenticated
          with check (bucket_id = 'docs');
        create policy docs_delete_own on storage.objects for delete to authenticated
          using (bucket_id = 'docs' and owner_id = (select auth.uid()::text));
        """

    @Test func aTextOwnerColumnHoldsTheUsersIdAsText() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("textowner").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })\n\(draft.yaml)")

        let notes = try #require(draft.plan.relations.first { $0.qualifiedName == "public.notes" })
        #expect(notes.sample.first { $0.column == "user_id" }?.expression == "auth.uid()::text", "\(draft.yaml)")
        #expect(notes.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")

        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.sample.first { $0.column == "owner_id" }?.expression == "auth.uid()::text", "\(draft.yaml)")
        #expect(objects.access["ava"] == Access(select: .own, insert: .own, update: .nothing, delete: .own), "\(draft.yaml)")
        #expect(!draft.yaml.contains("# DANGER"), "\(draft.yaml)")
    }
}
