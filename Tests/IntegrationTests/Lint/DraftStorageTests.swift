import Foundation
import Testing
import WardenKit
import TestSupport

/// `plan draft --schema storage` (docs/access-plan.md, "Storage"): the storage tables
/// clients reach are drafted; `storage.migrations`, which no persona's role may
/// touch, is not, so the draft's own check accepts it and it passes on its database.
@Suite struct DraftStorageTests {
    static func database() throws -> (connection: Connection, url: String) {
        let connection = try Connection(try TestCluster.newTwinDatabase("storage").project)
        try connection.execute(unsafeScript: """
            insert into storage.buckets (id, name) values ('avatars', 'avatars');
            create policy "Own avatars" on storage.objects for all to authenticated
              using (bucket_id = 'avatars' and owner = auth.uid())
              with check (bucket_id = 'avatars' and owner = auth.uid());
            create policy "Own folder" on storage.objects for select to authenticated
              using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));
            """)
        let url = try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: "postgres")
        return (connection, url)
    }

    @Test func draftOfPublicAndStorageIsVerified() throws {
        let (connection, _) = try Self.database()
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })\n\(draft.yaml)")
        let names = Set(draft.plan.relations.map(\.qualifiedName))
        #expect(names.contains("storage.objects") && names.contains("storage.buckets"), "\(names)")
        #expect(!names.contains("storage.migrations"))
        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.owner == "owner = auth.uid()")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.passed, "\(report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Files at `<org>/<user id>/<file>`, the policies reading the user's id in the second
    /// folder (`(storage.foldername(name))[2]`): the persona's file at `<uid>/<uid>.txt`
    /// matched no one, and the draft said no user reads or uploads their own documents
    /// (an HR app; round thirty-nine). The file sits after as many folders.
    @Test func aUsersFolderSecondInThePathHoldsTheirFile() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("storagesecond").project)
        try connection.execute(unsafeScript: """
            insert into storage.buckets (id, name, public) values ('documents', 'documents', false);
            create policy "read" on storage.objects for select to authenticated
              using (bucket_id = 'documents' and (select auth.uid()::text) = (storage.foldername(name))[2]);
            create policy "add" on storage.objects for insert to authenticated
              with check (bucket_id = 'documents' and (select auth.uid()::text) = (storage.foldername(name))[2]);
            create policy "delete" on storage.objects for delete to authenticated
              using (bucket_id = 'documents' and (select auth.uid()::text) = (storage.foldername(name))[2]);
            """)
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.access["ava"] == Access(select: .own, insert: .own, update: .nothing, delete: .own), "\(draft.yaml)")
        #expect(draft.yaml.contains("'draft/' || auth.uid()::text || '/' || auth.uid()::text || '.txt'"), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    @Test func theExecutableDraftsTheStorageSchemaAlone() throws {
        let (_, url) = try Self.database()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("draft-storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("access-plan.yml").path
        let drafted = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--schema", "storage", "--output", file])
        #expect(drafted.status == 0, "\(drafted.all)")
        #expect(drafted.standardOutput.contains("pgwarden test passes with it"), "\(drafted.all)")
        let yaml = try String(contentsOfFile: file, encoding: .utf8)
        #expect(yaml.contains("schemas: [storage]") && !yaml.contains("migrations:"))
        let tested = try PgwardenCLI.run(["test", "--database-url", url, "--plan", file])
        #expect(tested.status == 0, "\(tested.all)")
    }
}
