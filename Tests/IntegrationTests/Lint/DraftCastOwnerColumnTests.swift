import Foundation
import Testing
import WardenKit
import TestSupport

/// A policy that compares the signed-in user with a uuid column through casts:
/// `auth.uid()::text = id::text` (pg_get_expr: `((auth.uid())::text = (id)::text)`). The
/// owner column was not recognised through the casts, so the draft's setup rows and
/// samples left `id` to its default: no persona owned a row, every update and delete
/// probe of the drafted plan was "cannot probe: there is no such row", and the plan
/// failed its own run. Now the casts are looked through for a uuid column: it is the
/// owner, each persona owns its row, and the drafted plan passes. A text column compared
/// with `auth.uid()::text` keeps the whole expression as its rule (`user_id =
/// auth.uid()` would compare text with uuid). Found on an Expo starter's `users` table.
@Suite struct DraftCastOwnerColumnTests {
    static let schema = """
        create table public.people (id uuid primary key default gen_random_uuid(), name text not null);
        alter table public.people enable row level security;
        create policy "own person" on public.people for all to authenticated
          using (auth.uid()::text = id::text) with check (auth.uid()::text = id::text);
        create table public.notes (id bigint generated always as identity primary key, user_id text not null, body text);
        alter table public.notes enable row level security;
        create policy "own notes" on public.notes for all to authenticated
          using ((select auth.uid())::text = user_id) with check ((select auth.uid())::text = user_id);
        """

    @Test func theCastColumnIsTheOwner() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("castowner").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        let own = Access(select: .own, insert: .own, update: .own, delete: .own)
        let people = try #require(draft.plan.relations.first { $0.name == "people" })
        #expect(people.owner == "id = auth.uid()", "\(draft.yaml)")
        #expect(people.access["ava"] == own, "\(draft.yaml)")
        #expect(people.access["ben"] == own, "\(draft.yaml)")
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.owner?.contains("::text = user_id") == true, "\(draft.yaml)")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        let failed = report.failures.filter { $0.subject == "public.people" }
        #expect(failed.isEmpty, "\(failed.map { "\($0.name): \($0.observed)" })")
        #expect(try connection.query("select count(*)::text from public.people").scalar == "0")
    }
}
