import Foundation
import Testing
import WardenKit
import TestSupport

/// Storage policies scoped to a bucket (found on a real project: bucket `avatars`, read
/// and upload for anon and authenticated). A run without `storage` in its schemas says
/// it did not observe them; the draft with `storage` puts its rows and insert probes in
/// that bucket, in the persona's folder, so anon's read and upload show as DANGER, and
/// the draft passes its own test.
@Suite struct StorageBucketDraftTests {
    static func database() throws -> String {
        let connection = try Connection(try TestCluster.newTwinDatabase("bucket").project)
        try connection.execute(unsafeScript: """
            insert into storage.buckets (id, name, public) values ('avatars', 'avatars', false), ('zz-other', 'zz-other', false);
            create policy "anyone reads avatars" on storage.objects for select to anon, authenticated
              using (bucket_id = 'avatars');
            create policy "anyone uploads avatars" on storage.objects for insert to anon, authenticated
              with check (bucket_id = 'avatars');
            create policy "own folder" on storage.objects for update to authenticated
              using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));
            """)
        return try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: "postgres")
    }

    private func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bucket-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aRunWithoutStorageSaysItDidNotObserveItsPolicies() throws {
        let url = try Self.database()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(result.status == 0, "\(result.all)")
        let note = "NOTE storage.objects has 3 policies (bucket avatars) this run did not observe: "
            + "pgwarden plan draft --schema public --schema storage --output access-plan.yml, then pgwarden test"
        #expect(result.standardOutput.components(separatedBy: note).count == 2, "\(result.all)")
        let drafted = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--schema", "public", "--schema", "storage"])
        #expect(!drafted.all.contains("NOTE storage.objects has"), "\(drafted.all)")
    }

    @Test func theDraftProbesTheBucketItsPoliciesNameAndPasses() throws {
        let url = try Self.database()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("access-plan.yml").path
        let drafted = try PgwardenCLI.run([
            "plan", "draft", "--database-url", url, "--schema", "public", "--schema", "storage", "--output", plan,
        ])
        #expect(drafted.status == 0, "\(drafted.all)")
        #expect(drafted.standardOutput.contains("pgwarden test passes with it"), "\(drafted.all)")
        let yaml = try String(contentsOfFile: plan, encoding: .utf8)
        // The per-user folder policy makes the owner rule; the sample is in its bucket and folder.
        #expect(yaml.contains("""
                sample:
                  bucket_id: "'avatars'"
                  name: "auth.uid()::text || '/pgwarden-draft.txt'"
                access:
            """), "\(yaml)")
        #expect(yaml.contains("anon: { select: all, insert: all }  # DANGER: anon (no sign-in) may select, insert (the bucket's files)"),
                "\(yaml)")
        #expect(yaml.contains("ava: { select: all, insert: all, update: own }"), "\(yaml)")
        let tested = try PgwardenCLI.run(["test", "--database-url", url, "--plan", plan])
        #expect(tested.status == 0, "\(tested.all)")
    }
}
