import Foundation
import Testing
import WardenKit
import TestSupport

/// A suite whose first file sets up what the others use (Supabase's testing guide puts
/// `000-setup-tests-hooks.sql` first: it installs the test helpers into schema `tests`).
/// When that file fails, every file after it fails on an object that is missing; each of
/// those failures names the earlier file and its line, so the cause is not hidden among
/// its consequences.
@Suite struct PgTAPSetupFailureTests {
    private func run(_ files: [String: String]) throws -> PgwardenCLI.Output { try PgTAPFolder.test(files) }

    private static let usesHelpers = """
        begin;
        select plan(1);
        select ok(tests.ready(), 'the helpers are there');
        select * from finish();
        rollback;

        """

    @Test func filesAfterAFailedSetupFileNameItAsTheLikelyCause() throws {
        let result = try run([
            "000-setup-tests-hooks.sql": """
                create schema tests;
                create function tests.ready() returns boolean language sql as $$ select true $$;
                select extensions.no_such_installer('supabase-dbdev');

                """,
            "010-uses-helpers.sql": Self.usesHelpers,
            "020-uses-a-helper-table.sql": """
                begin;
                select plan(1);
                select is((select count(*)::int from tests.fixtures), 0, 'no fixtures');
                select * from finish();
                rollback;

                """,
        ])
        #expect(result.status == 1, "\(result.all)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let setup = try #require(lines.first { $0.contains("SQL error at line 3: 42883") }, "\(result.standardOutput)")
        #expect(!setup.contains("earlier file"), "\(setup)")
        let helpers = try #require(lines.first { $0.contains("SQL error at line 3: 3F000") }, "\(result.standardOutput)")
        #expect(helpers.contains("an earlier file, supabase/tests/000-setup-tests-hooks.sql, stopped at line 3 before this one ran"),
                "\(helpers)")
        let table = try #require(lines.first { $0.contains("SQL error at line 3: 42P01") }, "\(result.standardOutput)")
        #expect(table.contains("supabase/tests/000-setup-tests-hooks.sql, stopped at line 3"), "\(table)")
    }

    /// Without an earlier failure, a missing schema is reported as the server said it.
    @Test func aMissingSchemaWithNoEarlierFailureHasNoSuchNote() throws {
        let result = try run(["010-uses-helpers.sql": Self.usesHelpers])
        #expect(result.status == 1, "\(result.all)")
        #expect(result.standardOutput.contains(#"SQL error at line 3: 3F000: schema "tests" does not exist"#),
                "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("earlier file"), "\(result.standardOutput)")
    }
}
