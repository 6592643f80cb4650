import Foundation
import Testing
import WardenKit
import TestSupport

/// A Supabase CLI project (config.toml, a seed, pgTAP tests) without a
/// `supabase/migrations` folder: the Supabase CLI reads a missing folder as no
/// migrations (`ListLocalMigrations` in supabase/cli `pkg/migration/list.go` ignores
/// `os.ErrNotExist`), so `supabase start` and `supabase test db` run the seed and the
/// tests. `pgwarden dev` refused it ("migrations folder supabase/migrations does not
/// exist"); now it applies no migrations, says so, and runs the seed and the tests. A
/// folder named with `--migrations` that does not exist is still an error, before a
/// server starts. Found on a chat app whose schema lives in its seed.
@Suite struct SupabaseNoMigrationsFolderTests {
    private func project() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("no-migrations-\(UUID().uuidString)")
        let tests = root.appendingPathComponent("supabase/tests")
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try "project_id = \"chat\"\n".write(to: root.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        try "create table public.rooms (id int primary key);\ninsert into public.rooms values (1), (2);\n"
            .write(to: root.appendingPathComponent("supabase/seed.sql"), atomically: true, encoding: .utf8)
        try """
            begin;
            select plan(1);
            select is((select count(*)::int from public.rooms), 2, 'the seed made two rooms');
            select * from finish();
            rollback;
            """.write(to: tests.appendingPathComponent("rooms.test.sql"), atomically: true, encoding: .utf8)
        return root
    }

    @Test func devRunsTheSeedAndTheTestsWithNoMigrations() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let dev = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root.path)
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.standardError.contains("no migrations folder (supabase/migrations)"), "\(dev.all)")
        #expect(dev.standardOutput.contains("seed: applied"), "\(dev.all)")
        #expect(dev.all.contains("1 passed, 0 failed"), "\(dev.all)")
    }

    @Test func aMissingFolderNamedByAFlagIsStillAnError() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let dev = try PgwardenCLI.run(["dev", "--migrations", "nowhere"], environment: PgwardenCLI.cleanEnvironment(),
                                      directory: root.path)
        #expect(dev.status == 65, "\(dev.all)")
        #expect(dev.standardError.contains("migrations folder nowhere does not exist"), "\(dev.all)")
        #expect(!dev.standardOutput.contains("server:"), "\(dev.all)")
    }
}
