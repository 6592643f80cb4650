import Foundation
import Testing
import WardenKit
import TestSupport

/// pgTAP suites in `pgwarden test`, as a Supabase user meets them: a project folder
/// with `supabase/tests` (found without flags), run through the real executable
/// against Electric Ride on a twin, as `postgres`.
@Suite struct PgTAPCommandLineTests {
    private static let fixture = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/PgTAP/tests")

    /// A project folder holding a copy of the fixture suite as `supabase/tests`, plus
    /// `extra` files (relative path -> text); no access plan.
    private func project(_ extra: [String: String] = [:]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pgtap-\(UUID().uuidString)")
        let tests = root.appendingPathComponent("supabase/tests")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("supabase"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: tests)
        for (name, text) in extra {
            try text.write(to: tests.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return root
    }

    private func electricRide() throws -> (url: String, connection: Connection) {
        let connection = try ElectricRide.database()
        let cluster = try TestCluster.cluster
        return (cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: cluster.projectUser), connection)
    }

    /// No BEGIN, and a write: the digests before and after show it rolled back.
    private static let failingFile = """
        select plan(2);
        insert into public.make (brand_name) values ('Left behind?');
        select ok(true, 'the first check holds');
        select is((select count(*)::int from public.make), -1, 'there are minus one makes');
        select * from finish();

        """

    @Test func thePassingSuiteIsFoundRunsEveryFileAndChangesNothing() throws {
        let (url, connection) = try electricRide()
        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let before = try DatabaseDigest.ofDatabase(connection)
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: root.path)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("pgTAP: 3 files, 13 assertions, 11 passed, 0 failed, 2 skipped or todo"))
        let order = ["✓ supabase/tests/01_schema_test.sql", "✓ supabase/tests/02_anon_test.sql",
                     "✓ supabase/tests/rls/10_signed_in_test.pg"]
        let positions = order.compactMap { result.standardOutput.range(of: $0)?.lowerBound }
        #expect(positions.count == 3 && positions == positions.sorted(), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("? 6 - brand names are unique per country # TODO"))
        // No plan: the access as observed (issue 16 item 7), and pgTAP alone decides.
        #expect(result.standardOutput.contains("no access plan (access-plan.yml): what the database allows now"))
        #expect(try DatabaseDigest.ofDatabase(connection) == before)
        #expect(try connection.query("select count(*) from pg_extension where extname = 'pgtap'").scalar == "0")
    }

    @Test func aFailingAssertionFailsTheRunAndIsNamedInTextAndJUnit() throws {
        let (url, connection) = try electricRide()
        let root = try project(["zz_failing_test.sql": Self.failingFile])
        defer { try? FileManager.default.removeItem(at: root) }
        let before = try DatabaseDigest.ofDatabase(connection)
        let text = try PgwardenCLI.run(["test", "--database-url", url], directory: root.path)
        #expect(text.status == 1, "\(text.all)")
        #expect(text.standardOutput.contains("✗ supabase/tests/zz_failing_test.sql:4: 2 - there are minus one makes"))
        #expect(text.standardOutput.contains("pgTAP: 4 files, 15 assertions, 12 passed, 1 failed"))
        let junitFile = root.appendingPathComponent("report.xml")
        let junit = try PgwardenCLI.run(
            ["test", "--database-url", url, "--format", "junit", "--output", junitFile.path], directory: root.path)
        #expect(junit.status == 1)
        let xml = try String(contentsOf: junitFile, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="supabase/tests/zz_failing_test.sql" tests="2" failures="1""#))
        #expect(xml.contains(#"<testcase classname="supabase/tests/zz_failing_test.sql" name="2 - there are minus one makes" file="supabase/tests/zz_failing_test.sql" line="4">"#))
        #expect(xml.contains("<failure message=\"supabase/tests/zz_failing_test.sql: 2 - there are minus one makes\">"))
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 15)
        #expect(try DatabaseDigest.ofDatabase(connection) == before)
    }

    @Test func aSQLErrorFailsItsFileAtItsLineAndTheNextFileStillRuns() throws {
        let (url, _) = try electricRide()
        let broken = "select plan(2);\nselect ok(true, 'before the error');\nselect *\n  from no_such_table;\n"
        let root = try project(["00_broken_test.sql": broken])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(["test", "--database-url", url, "--format", "github"], directory: root.path)
        #expect(result.status == 1, "\(result.all)")
        #expect(result.standardOutput.contains(
            "✗ supabase/tests/00_broken_test.sql:4: SQL error at line 4: 42P01: relation \"no_such_table\" does not exist"))
        #expect(result.standardOutput.contains("::error file=supabase/tests/00_broken_test.sql,line=4,title=pgTAP%3A SQL error"))
        #expect(result.standardOutput.contains("✓ supabase/tests/rls/10_signed_in_test.pg"))
    }

    /// A block's statements are pipelined; an error still stops the rest of its file,
    /// and what came before it (a block of its own, and the same block) counts.
    @Test func nothingAfterASQLErrorRunsInItsPipelinedBlock() throws {
        let (url, _) = try electricRide()
        let broken = """
            select plan(3);
            begin;
            select ok(true, 'before the error');
            select 1 / 0;
            select ok(true, 'after the error');
            select ok(true, 'also after the error');
            rollback;

            """
        let root = try project(["00_broken_test.sql": broken])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(["test", "--database-url", url, "--format", "tap"], directory: root.path)
        #expect(result.status == 1, "\(result.all)")
        #expect(result.all.contains("SQL error at line 4: 22012"), "\(result.all)")
        #expect(result.all.contains("before the error"), "\(result.all)")
        #expect(!result.all.contains("after the error"), "\(result.all)")
    }

    @Test func anExtensionTheServerLacksIsExplainedInTheFilesFailure() throws {
        let (url, _) = try electricRide()
        // pgvector: Supabase provides it; this server lacks it, and pgwarden has no stand-in.
        let root = try project(["00_needs_vector_test.sql": "select plan(1);\ncreate extension if not exists vector;\nselect pass('x');\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: root.path)
        #expect(result.status == 1, "\(result.all)")
        #expect(result.standardOutput.contains("0A000: extension \"vector\" is not available"), "\(result.all)")
        #expect(result.standardOutput.contains("(hint: this server lacks the extension vector, which Supabase provides"),
                "\(result.all)")
    }

    /// A refused file fails alone, with nothing of it sent; the other files run.
    @Test func transactionControlInTheWrongPlaceFailsItsFileAndNothingOfItRuns() throws {
        let (url, connection) = try electricRide()
        let root = try project([
            "05_nested_test.sql": "select plan(1);\nbegin;\ninsert into public.colour (name) values ('Kept?');\nbegin;\nselect pass('x');\n"
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: root.path)
        #expect(result.status == 1, "\(result.all)")
        #expect(result.standardOutput.contains(
            "✗ supabase/tests/05_nested_test.sql:4: not run: line 4: 'begin' opens a transaction inside another one"),
                "\(result.all)")
        #expect(result.standardOutput.contains("✓ supabase/tests/rls/10_signed_in_test.pg"), "\(result.all)")
        #expect(result.standardError.isEmpty, "\(result.all)")
        #expect(try connection.query("select count(*) from public.colour where name = 'Kept?'").scalar == "0")
    }

    /// As under pg_prove (psql, autocommit): a setup file with no BEGIN that ends in
    /// ROLLBACK keeps its helper for the files after it, a COMMIT with no BEGIN commits
    /// nothing of pgwarden's run, and two files may prepare statements of one name.
    /// Nothing is left in the database.
    @Test func setupFilesAndPreparedStatementsBehaveAsUnderPgProve() throws {
        let (url, connection) = try electricRide()
        let root = try project([
            "00_setup.sql": "select plan(1);\ncreate schema if not exists tests;\n"
                + "create function tests.two() returns int language sql as 'select 2';\n"
                + "create table tests.kept (x int);\ncommit;\nselect pass('setup');\nrollback;\n",
            "01_uses_setup_test.sql": "begin;\nselect plan(1);\nprepare count_t as select tests.two();\n"
                + "select is(tests.two(), 2, 'the setup file left its helper');\nselect * from finish();\nrollback;\n",
            "02_prepares_again_test.sql": "begin;\nselect plan(1);\nprepare count_t as select 1;\n"
                + "select pass('prepared again');\nselect * from finish();\nrollback;\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(["test", "--database-url", url, "--tests", "supabase/tests"], directory: root.path)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("✓ supabase/tests/01_uses_setup_test.sql"), "\(result.all)")
        #expect(result.standardOutput.contains("✓ supabase/tests/02_prepares_again_test.sql"), "\(result.all)")
        let left = try connection.query("select coalesce(to_regclass('tests.kept')::text, '-') || coalesce(to_regprocedure('tests.two()')::text, '-')").scalar
        #expect(left == "--", "left: \(left ?? "")")
    }

    @Test func theAccessPlanAndTheSuiteReportTogether() throws {
        let (url, _) = try electricRide()
        let root = try project(["zz_failing_test.sql": Self.failingFile])
        defer { try? FileManager.default.removeItem(at: root) }
        let json = root.appendingPathComponent("report.json")
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--plan", ElectricRide.planPath, "--tests", "supabase/tests",
             "--format", "json", "--output", json.path], directory: root.path)
        #expect(result.status == 1, "\(result.all)")
        #expect(result.standardOutput.contains("291 probes, 291 passed, 0 failed"))
        #expect(result.standardOutput.contains("pgTAP: 4 files, 15 assertions, 12 passed, 1 failed"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(document["passed"] as? Bool == false)
        #expect((document["results"] as? [Any])?.count == 291)
        let files = try #require(document["pgtap"] as? [[String: Any]])
        #expect(files.map { $0["file"] as? String } == [
            "supabase/tests/01_schema_test.sql", "supabase/tests/02_anon_test.sql",
            "supabase/tests/rls/10_signed_in_test.pg", "supabase/tests/zz_failing_test.sql",
        ])
    }

    @Test func devRunsThePlanAndTheSuiteOrTheSuiteAlone() throws {
        let both = try PgwardenCLI.run(["dev", "--tests", Self.fixture.path], directory: PackagePaths.root.path)
        #expect(both.status == 0, "\(both.all)")
        #expect(both.standardOutput.contains("291 probes, 291 passed, 0 failed"))
        #expect(both.standardOutput.contains("pgTAP: 3 files, 13 assertions, 11 passed, 0 failed, 2 skipped or todo"))
        // A project with migrations, seeds and supabase/tests but no plan: pgTAP decides.
        let root = try project(["zz_failing_test.sql": Self.failingFile])
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["migrations", "seeds"] {
            try FileManager.default.copyItem(
                at: PackagePaths.root.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
        let alone = try PgwardenCLI.run(["dev"], directory: root.path)
        #expect(alone.status == 1, "\(alone.all)")
        #expect(alone.standardOutput.contains("✗ supabase/tests/zz_failing_test.sql:4: 2 - there are minus one makes"))
        #expect(alone.standardOutput.contains("no access plan"))
    }

    /// As under `supabase test db` (pg_prove, psql's autocommit, a session per file): a
    /// setup file's helpers are there for the files after it, while no file inherits
    /// another's role, settings or pgTAP bookkeeping; nothing stays after the run.
    @Test func aSetupFileServesTheFilesAfterItAndEachFileStartsAFreshSession() throws {
        let (url, connection) = try electricRide()
        let root = try project([
            "000_setup_test.sql": """
                create schema tests;
                create function tests.answer() returns int language sql as 'select 42';
                grant usage on schema tests to anon;
                select plan(1);
                select ok(true, 'the helpers are in place');
                select * from finish();

                """,
            "005_switches_role_test.sql": """
                set role anon;
                set application_name = 'left by 005';
                create temporary table scratch (x int);
                select plan(1);
                select is(tests.answer(), 42, 'a later file calls the helper');
                select * from finish();

                """,
            "007_fresh_session_test.sql": """
                begin;
                select plan(4);
                select is(current_user::text, 'postgres', 'the file starts as the run''s role');
                select isnt(current_setting('application_name'), 'left by 005', 'with its own settings');
                select is(to_regclass('pg_temp.scratch'), null, 'and no temporary table of another file');
                select is(tests.answer(), 42, 'the setup file''s helper is still there');
                select * from finish();
                rollback;

                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let before = try DatabaseDigest.ofDatabase(connection)
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: root.path)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("✓ supabase/tests/007_fresh_session_test.sql"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("pgTAP: 6 files, 19 assertions, 17 passed, 0 failed, 2 skipped or todo"),
                "\(result.standardOutput)")
        #expect(try DatabaseDigest.ofDatabase(connection) == before)
        #expect(try connection.query("select to_regnamespace('tests')").scalar == nil)
    }

    /// pgTAP is a privileged extension on Supabase, created by supautils as the superuser:
    /// a project that revokes EXECUTE on its own new functions from PUBLIC does not take
    /// pgTAP's from anon (basejump's first migration does this).
    @Test func anonMayCallPgTAPAfterTheProjectRevokesExecuteFromPublic() throws {
        let (url, connection) = try electricRide()
        try connection.execute("alter default privileges revoke execute on functions from public")
        let root = try project([
            "03_as_anon_test.sql": """
                begin;
                select plan(1);
                set local role anon;
                select ok(true, 'anon calls ok()');
                select * from finish();
                rollback;

                """,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: root.path)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("✓ supabase/tests/03_as_anon_test.sql"), "\(result.standardOutput)")
    }

    @Test func onPlainPostgresPgTAPIsCreatedForTheRunOnlyAndTestsFolderIsFound() throws {
        let settings = try TestCluster.newDatabase("plaintap")
        let connection = try Connection(settings)
        try connection.execute("create table public.thing (id int primary key, name text not null)")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("plaintap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("tests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try """
            select plan(2);
            select has_table('thing');
            select col_not_null('thing', 'name', 'a thing has a name');
            select * from finish();
            """.write(to: root.appendingPathComponent("tests/thing.sql"), atomically: true, encoding: .utf8)
        let cluster = try TestCluster.cluster
        let url = cluster.url(database: settings.parameters["dbname"] ?? "")
        let result = try PgwardenCLI.run(["test", "--database-url", url, "--format", "tap"], directory: root.path)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("ok 2 - tests/thing.sql · 2 - a thing has a name"))
        #expect(try connection.query("select count(*) from pg_extension where extname = 'pgtap'").scalar == "0")
    }

    @Test func aMissingTestsFolderIsBadInput() throws {
        let result = try PgwardenCLI.run(
            ["test", "--database-url", "postgres://127.0.0.1:1/none", "--tests", "/no/such/tests"])
        #expect(result.status == 65, "\(result.all)")
        #expect(result.standardError == "pgwarden: /no/such/tests: cannot read the tests folder (no such folder)\n")
    }
}
