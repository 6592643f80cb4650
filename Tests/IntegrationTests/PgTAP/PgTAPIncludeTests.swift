import Foundation
import Testing
import WardenKit
import TestSupport

/// psql's includes in pgTAP files (`\i`, `\ir`), as `supabase test db` runs them
/// (pg_prove in the tests folder, so `\i` is relative to it; `\ir` to the including
/// file), and a test file pgwarden cannot read, which fails alone.
@Suite struct PgTAPIncludeTests {
    private static let fixture = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/PgTAP/tests")

    /// A project folder with the fixture suite as `supabase/tests` plus `extra` files
    /// (path under the tests folder -> text); with the repository's migrations and
    /// seeds when `withMigrations`.
    private func project(_ extra: [String: String], withMigrations: Bool = false) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pgtap-include-\(UUID().uuidString)")
        let tests = root.appendingPathComponent("supabase/tests")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("supabase"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: tests)
        for (name, text) in extra {
            let file = tests.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        if withMigrations {
            for folder in ["migrations", "seeds"] {
                try FileManager.default.copyItem(
                    at: PackagePaths.root.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
            }
        }
        return root
    }

    private func electricRideURL() throws -> String {
        let connection = try ElectricRide.database()
        let cluster = try TestCluster.cluster
        return cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: cluster.projectUser)
    }

    /// `\i` from a nested folder reads from the tests folder, `\ir` (also inside an
    /// included file, and with `..`) from the including file's folder; the long names
    /// and a quoted path work too. Files that do not end in .sql or .pg are not run.
    @Test func nestedIAndIrIncludesRunAsUnderSupabaseTestDb() throws {
        let root = try project([
            "_shared/setup.sql.raw": "\\ir more/plan.sql.raw\ncreate temporary table seen (n int);\n",
            "_shared/more/plan.sql.raw": "select plan(3);\n",
            "_shared/check.sql.raw": "select ok(exists (select from public.make), 'included by \\ir with ..');\n",
            "_shared/it's.sql.raw": "select ok(true, 'a quoted path');\n",
            "sub/deep/20_nested_test.sql": """
                begin;
                \\i _shared/setup.sql.raw
                insert into seen values (1);
                \\include_relative ../../_shared/check.sql.raw
                \\include '_shared/it''s.sql.raw'
                select is((select count(*)::int from seen), 1, 'the included setup ran first');
                select * from finish();
                rollback;

                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(["test", "--database-url", try electricRideURL()], directory: root.path)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("✓ supabase/tests/sub/deep/20_nested_test.sql  3 assertions"),
                "\(result.standardOutput)")
        #expect(result.standardOutput.contains("✓ 1 - included by \\ir with .."), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("pgTAP: 4 files, 16 assertions, 14 passed, 0 failed, 2 skipped or todo"),
                "\(result.standardOutput)")
        #expect(!result.standardOutput.contains(".raw"), "\(result.standardOutput)")
    }

    /// What `dev` and `test` both do with files pgwarden cannot read: each fails alone,
    /// at the include's (or meta-command's) file and line, and everything else runs.
    private static let unreadableFiles = [
        "00_missing_test.sql": "select plan(1);\n\\ir _shared/nope.sql\nselect pass('never');\n",
        "01_cycle_test.sql": "select plan(1);\n\\ir _c/x.sql.raw\nselect pass('never');\n",
        "_c/x.sql.raw": "select 1;\n\\ir y.sql.raw\n",
        "_c/y.sql.raw": "\\i _c/x.sql.raw\n",
        "03_connect_test.sql": "select plan(1);\n\n\\c other\nselect pass('never');\n",
    ]

    private func expectEachUnreadableFileFailsAlone(_ result: PgwardenCLI.Output) {
        let out = result.standardOutput
        #expect(result.status == 1, "\(result.all)")
        #expect(out.contains("✗ supabase/tests/00_missing_test.sql:2: not run: line 2: '\\ir _shared/nope.sql' includes "
            + "supabase/tests/_shared/nope.sql, which does not exist (\\ir reads a path relative to the including file's folder)"),
                "\(out)")
        #expect(out.contains("✗ supabase/tests/01_cycle_test.sql: not run: supabase/tests/_c/y.sql.raw:1: '\\i _c/x.sql.raw' "
            + "includes supabase/tests/_c/x.sql.raw, which is already being included (supabase/tests/_c/x.sql.raw:2 → "
            + "supabase/tests/_c/y.sql.raw:1 → supabase/tests/_c/x.sql.raw)"), "\(out)")
        #expect(out.contains("✗ supabase/tests/03_connect_test.sql:3: not run: line 3: '\\c other' is a psql meta-command "
            + "that pgwarden does not run"), "\(out)")
        #expect(out.contains("✓ supabase/tests/rls/10_signed_in_test.pg"), "\(out)")
        #expect(out.contains("pgTAP: 6 files, 16 assertions, 11 passed, 3 failed, 2 skipped or todo"), "\(out)")
        #expect(!out.contains("never"), "\(out)")
    }

    @Test func devRunsTheMigrationsAndTheOtherFilesWhenATestFileCannotBeRead() throws {
        let root = try project(Self.unreadableFiles, withMigrations: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(["dev"], directory: root.path)
        #expect(!result.standardError.contains("pgwarden:"), "\(result.all)")
        #expect(result.standardOutput.contains("applied 20261121000100 create_lookup_tables"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("no access plan"), "\(result.standardOutput)")
        expectEachUnreadableFileFailsAlone(result)
    }

    @Test func testFailsOnlyTheFilesItCannotRead() throws {
        let root = try project(Self.unreadableFiles)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(["test", "--database-url", try electricRideURL()], directory: root.path)
        expectEachUnreadableFileFailsAlone(result)
    }

    /// A SQL error or a refused statement inside an included file names that file and
    /// its line; the test file's own line (the include) is where the report points.
    @Test func anErrorInsideAnIncludedFileNamesThatFileAndLine() throws {
        let root = try project([
            "_shared/broken.sql.raw": "select ok(true, 'before');\nselect *\n  from no_such_table;\n",
            "_shared/nested_begin.sql.raw": "select 1;\nbegin;\n",
            "00_sql_error_test.sql": "select plan(2);\n\\ir _shared/broken.sql.raw\nselect pass('after');\n",
            "01_refused_test.sql": "begin;\nselect plan(1);\n\\i _shared/nested_begin.sql.raw\nrollback;\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(
            ["test", "--database-url", try electricRideURL(), "--format", "github"], directory: root.path)
        let out = result.standardOutput
        #expect(result.status == 1, "\(result.all)")
        #expect(out.contains("✗ supabase/tests/00_sql_error_test.sql:2: SQL error at supabase/tests/_shared/broken.sql.raw:3 "
            + "(included at line 2): 42P01: relation \"no_such_table\" does not exist"), "\(out)")
        #expect(out.contains("::error file=supabase/tests/00_sql_error_test.sql,line=2,"), "\(out)")
        #expect(out.contains("✓ 1 - before"), "\(out)")
        #expect(out.contains("✗ supabase/tests/01_refused_test.sql: not run: supabase/tests/_shared/nested_begin.sql.raw:2: "
            + "'begin' opens a transaction inside another one (BEGIN inside BEGIN)"), "\(out)")
    }
}
