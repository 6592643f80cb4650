import Foundation
import Testing
import WardenKit
import TestSupport

/// Buckets declared in config.toml (`[storage.buckets.<name>]`), which `supabase start`
/// and `supabase db reset` create after the seeds (the CLI's `seed buckets` step). The
/// twin had none of them: a project's storage policies guarded a bucket that did not
/// exist, every storage cell of its draft was wrong, and nothing said why (a fashion
/// app's three buckets, a snapshots repro). `dev` now makes them, after the seeds.
@Suite struct ConfigStorageBucketsTests {
    static let config = """
        project_id = "buckets"

        [storage]
        enabled = true

        [storage.buckets.snapshots]
        public = false

        [storage.buckets.images]
        public = true
        file_size_limit = "5MiB"
        allowed_mime_types = ["image/png"]
        objects_path = "./images"
        """

    static let migration = """
        create policy "own snapshots" on storage.objects for select to authenticated
          using (bucket_id = 'snapshots' and (storage.foldername(name))[1] = auth.uid()::text);
        create policy "upload own snapshots" on storage.objects for insert to authenticated
          with check (bucket_id = 'snapshots' and (storage.foldername(name))[1] = auth.uid()::text);
        """

    /// A Supabase CLI project with those buckets, the policies, and a seed that makes
    /// `images` already (its properties are then updated, as the CLI updates them).
    private func project() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("buckets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("supabase/migrations"), withIntermediateDirectories: true)
        try Self.config.write(to: root.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        try Self.migration.write(to: root.appendingPathComponent("supabase/migrations/20240101000000_storage.sql"), atomically: true, encoding: .utf8)
        try "insert into storage.buckets (id, name) values ('images', 'images');\n"
            .write(to: root.appendingPathComponent("supabase/seed.sql"), atomically: true, encoding: .utf8)
        return root
    }

    @Test func devMakesConfigBucketsAfterTheSeeds() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let dev = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root.path)
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.standardOutput.contains("storage: updated bucket images (public) ([storage.buckets] in config.toml)"), "\(dev.all)")
        #expect(dev.standardOutput.contains("storage: bucket images: objects_path ./images not uploaded (the twin has no storage server)"), "\(dev.all)")
        #expect(dev.standardOutput.contains("storage: created bucket snapshots (private) ([storage.buckets] in config.toml)"), "\(dev.all)")
    }

    /// The library's `provision` makes them too: the rows as the Storage API writes them.
    @Test func provisionWritesTheBucketsRows() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let project = try ProjectLayout.discover(in: root).project
        #expect(project.storageBuckets.map(\.name) == ["images", "snapshots"])
        let connection = try Connection(try TestCluster.newTwinDatabase("configbuckets").project)
        try project.provision(on: connection)
        let rows = try connection.query("""
            select format('%s %s %s %s %s', id, name, public, coalesce(file_size_limit::text, '-'), coalesce(allowed_mime_types::text, '-'))
            from storage.buckets order by id
            """).rows.map { $0[0] ?? "" }
        #expect(rows == ["images images t 5242880 {image/png}", "snapshots snapshots f - -"], "\(rows)")
        // Again: the same rows, updated, not doubled.
        _ = try ConfigStorageBuckets.apply(project.storageBuckets, on: connection)
        #expect(try connection.query("select count(*)::text from storage.buckets").scalar == "2")
    }
}
