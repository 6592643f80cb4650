import Foundation
import Testing
import WardenKit
import TestSupport

/// psql variables in pgTAP files, as `supabase test db` (pg_prove, so psql) runs them:
/// `\set`, `\unset`, `query \gset [prefix]`, and `:name`, `:'name'`, `:"name"` in the SQL
/// after them; what psql refuses (a `\gset` without one row) stops the file at its line,
/// and a value cannot make a statement into two or into transaction control.
@Suite struct PgTAPVariableTests {
    private func run(_ files: [String: String]) throws -> PgwardenCLI.Output { try PgTAPFolder.test(files) }

    @Test func setUnsetAndGsetVariablesAreInterpolatedAsPsqlDoes() throws {
        let result = try run([
            "_shared/names.sql.raw": "\\set included_name 'from the include'\n",
            "10_variables_test.sql": """
                begin;
                select plan(14);
                select 41 + 1 as answer, 'it''s' as word,
                       'my table' as tab \\gset
                select is(:answer, 42, 'gset then :name');
                select is(:'word', 'it''s'::text, 'gset then :''name'' is a literal');
                create temporary table :"tab" (n int);
                select is((select count(*)::int from "my table"), 0, ':"name" is an identifier');
                \\set flow_slug 'my_flow'
                select is(:'flow_slug', 'my_flow'::text, 'set with a quoted value');
                \\set joined a 'b c' d
                select is(:'joined', 'ab cd'::text, 'set concatenates its values');
                \\set path 'a\\\\b'
                select is(:'path', E'a\\\\b'::text, 'a backslash is quoted as psql quotes it');
                \\unset flow_slug
                select is(:{?flow_slug}, false, 'unset removes it');
                select 1 as one, null::int as answer \\gset p_
                select is(:p_one, 1, 'gset with a prefix');
                select is(:{?p_answer}, false, 'a NULL unsets');
                \\set text 'oops'
                select is(':answer', ':' || 'answer', 'not inside a string literal');
                select is($$:answer$$, ':' || 'answer', 'not inside a dollar quote');
                select is(42::text /* :answer */, '42', 'not a :: cast, not in a comment');
                \\ir _shared/names.sql.raw
                select is(:'included_name', 'from the include'::text, 'set in an included file');
                select is(:"answer"::text, '42', 'the column named by :"name"') from (select 42 as "42") t;
                select * from finish();
                rollback;

                """,
        ])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("✓ supabase/tests/10_variables_test.sql  14 assertions"), "\(result.all)")
    }

    @Test func aGsetWithoutOneRowAndASmuggledStatementStopTheFileAtTheirLine() throws {
        let result = try run([
            "00_sets_test.sql": "select plan(1);\nselect 1 as leaked \\gset\nselect pass('sets a variable');\n",
            "01_zero_rows_test.sql": "select plan(2);\nselect pass('before');\nselect 1 as n\n  where false \\gset\nselect pass('never');\n",
            "02_two_rows_test.sql": "select plan(1);\nselect n from generate_series(1, 2) n \\gset\nselect pass('never');\n",
            "03_two_statements_test.sql": """
                select plan(2);
                select '1; select 2' as evil \\gset
                select pass('before');
                select :evil;
                select pass('never');

                """,
            "04_commit_test.sql": "begin;\nselect plan(1);\n\\set ctl 'commit'\n:ctl;\nselect pass('never');\nrollback;\n",
            "05_session_test.sql": "select plan(1);\nselect is(:leaked, 1, 'never');\n",
            "06_included_test.sql": "select plan(1);\n\\ir _shared/two.sql.raw\nselect pass('never');\n",
            "_shared/two.sql.raw": "-- two rows\nselect n\n  from generate_series(1, 2) n \\gset\n",
        ])
        let out = result.standardOutput
        #expect(result.status == 1, "\(result.all)")
        #expect(out.contains("✓ supabase/tests/00_sets_test.sql"), "\(out)")
        #expect(out.contains("✗ supabase/tests/01_zero_rows_test.sql:4: psql error at line 4: no rows returned for \\gset"),
                "\(out)")
        #expect(out.contains(
            "✗ supabase/tests/02_two_rows_test.sql:2: psql error at line 2: more than one row returned for \\gset"), "\(out)")
        #expect(out.contains("✗ supabase/tests/03_two_statements_test.sql:4: not sent at line 4: the statement is 2 statements "
            + "once psql variables are interpolated; pgwarden sends one at a time"), "\(out)")
        #expect(out.contains("✗ supabase/tests/04_commit_test.sql:4: not sent at line 4: the statement is transaction control "
            + "once psql variables are interpolated"), "\(out)")
        // Each file is a psql session of its own: a variable does not outlive its file,
        // and an unknown one is left as written, for the server to report.
        #expect(out.contains("✗ supabase/tests/05_session_test.sql:2: SQL error at line 2: 42601: syntax error at or near \":\""),
                "\(out)")
        #expect(out.contains("✗ supabase/tests/06_included_test.sql:2: psql error at supabase/tests/_shared/two.sql.raw:3 "
            + "(included at line 2): more than one row returned for \\gset"), "\(out)")
        #expect(out.contains("✓ 1 - before"), "\(out)")
        #expect(!out.contains("never"), "\(out)")
    }

    /// The round trips one file costs, run alone by the pgTAP runner.
    private func roundTrips(_ text: String, on connection: Connection) throws -> (trips: Int, passed: Bool) {
        let script = try PgTAPScript(file: "t.sql", text: text)
        let before = connection.roundTrips
        let results = try PgTAPRunner(connection: connection, scripts: [("t.sql", .success(script))]).run()
        return (connection.roundTrips - before, results.allSatisfy(\.passed))
    }

    /// A block is still one round trip however many statements it has, and psql
    /// variables cost none; each `\gset` costs one, since what follows it waits for its row.
    @Test func variablesAddNoRoundTripsAndEachGsetAddsOne() throws {
        let connection = try TestCluster.connect()
        let passes = (1...30).map { "select pass('\($0)');\n" }.joined()
        let three = "begin;\nselect plan(3);\nselect pass('a');\nselect pass('b');\nselect pass('c');\nrollback;\n"
        let thirty = "begin;\nselect plan(30);\n" + passes + "rollback;\n"
        let variables = """
            begin;
            \\set a 'a'
            select plan(3);
            \\set b b
            select pass(:'a');
            select pass(:'b');
            \\unset b
            select pass('c');
            rollback;

            """
        let gsets = """
            begin;
            select plan(3);
            select 'a' as a \\gset
            select pass(:'a');
            select 'b' as b \\gset
            select pass(:'b');
            select pass('c');
            rollback;

            """
        let base = try roundTrips(three, on: connection)
        #expect(base.passed)
        #expect(try roundTrips(thirty, on: connection) == (base.trips, true))
        #expect(try roundTrips(variables, on: connection) == (base.trips, true))
        #expect(try roundTrips(gsets, on: connection) == (base.trips + 2, true))
    }
}
