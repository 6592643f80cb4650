import Foundation
import Testing
import WardenKit
import TestSupport

/// Guarantee 3: a failing statement names file, line and column, shows the line with a
/// caret, gives SQLSTATE, message, detail and hint; nothing of that migration remains.
@Suite struct ErrorReportTests {
    static let good = [
        "1_one.sql": "-- migrate:up\ncreate table one (id int primary key);\n-- migrate:down\ndrop table one;\n",
        "2_two.sql": "-- migrate:up\ncreate table two (id int);\n-- migrate:down\ndrop table two;\n",
    ]

    /// Runs `up` on the good migrations plus `3_bad.sql` and returns the failure.
    func failure(_ bad: String) throws -> (MigrationSQLFailure, TestDatabase) {
        let database = try TestDatabase()
        let folder = try MigrationFolder(Self.good.merging(["3_bad.sql": bad, "4_after.sql": "create table after ();"]) { a, _ in a })
        let migrator = try folder.migrator(database)
        let failure = try #require(throws: MigrationSQLFailure.self) { try migrator.up() }
        #expect(try database.historyVersions() == ["1", "2"])
        #expect(try !database.exists("after"))
        return (failure, database)
    }

    func lines(_ failure: MigrationSQLFailure) -> [String] {
        failure.description.split(separator: "\n").map(String.init)
    }

    @Test func theCLIReportsFileLineColumnCaretAndExitsOne() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(Self.good.merging([
            "3_bad.sql": "-- migrate:up\n-- a comment\ncreate table three (id int);\ninsert into three\n  values (1), ('x');\n",
        ]) { a, _ in a })
        let output = try PgwardenCLI.run(["up", "--database-url", try database.url, "--migrations", folder.path])
        #expect(output.status == 1)
        let lines = output.standardError.split(separator: "\n").map(String.init)
        #expect(lines.first == "pgwarden: \(folder.path)/3_bad.sql:5:16: invalid input syntax for type integer: \"x\" (SQLSTATE 22P02)")
        #expect(lines.contains("    5 |   values (1), ('x');"))
        #expect(lines.contains("      |                ^"))
        #expect(lines.last == "migration 3 was rolled back: nothing of it remains; 2 earlier migrations of this run stay applied")
        #expect(output.standardOutput.contains("applied 1 one") && output.standardOutput.contains("applied 2 two"))
        #expect(try database.historyVersions() == ["1", "2"])
        #expect(try !database.exists("three"))
    }

    @Test func aSyntaxErrorPointsAtTheWord() throws {
        let (failure, _) = try failure("-- migrate:up\ncreate table three (id int);\n\ncreate tabel four (\n  id int\n);\n")
        let report = lines(failure)
        #expect(report[0].hasSuffix("3_bad.sql:4:8: syntax error at or near \"tabel\" (SQLSTATE 42601)"))
        #expect(report[1] == "    4 | create tabel four (")
        #expect(report[2] == "      |        ^")
        #expect(report.contains("in statement 2 of the up section (lines 4-6)"))
    }

    @Test func anErrorWithoutPositionNamesTheStatementAndGivesDetail() throws {
        let (failure, database) = try failure(
            "-- migrate:up\ncreate table three (id int);\ninsert into one values (1);\n\ninsert into one\n  values (1);\n")
        let report = lines(failure)
        #expect(report[0].hasSuffix("3_bad.sql:5: duplicate key value violates unique constraint \"one_pkey\" (SQLSTATE 23505)"))
        #expect(report[1] == "    5 | insert into one")
        #expect(report.contains("DETAIL: Key (id)=(1) already exists."))
        #expect(report.contains("in statement 3 of the up section (lines 5-6)"))
        #expect(try database.scalar("select count(*) from one") == "0")
    }

    @Test func aHintIsShown() throws {
        let (failure, _) = try failure("-- migrate:up\nselect no_such_function(1);\n")
        let report = lines(failure)
        #expect(report[0].hasSuffix("3_bad.sql:2:8: function no_such_function(integer) does not exist (SQLSTATE 42883)"))
        #expect(report.contains { $0.hasPrefix("HINT: No function matches the given name and argument types.") })
    }

    @Test func anErrorRaisedInADoBlockPointsAtItsLine() throws {
        let (failure, _) = try failure("""
            -- migrate:up
            create table three (id int);
            do $$
            begin
              perform 1;
              raise exception 'not ready: %', 42
                using detail = 'the detail', hint = 'the hint', errcode = 'P0002';
            end
            $$;
            """)
        let report = lines(failure)
        #expect(report[0].hasSuffix("3_bad.sql:6: not ready: 42 (SQLSTATE P0002)"))
        #expect(report[1] == "    6 |   raise exception 'not ready: %', 42")
        #expect(report.contains("DETAIL: the detail"))
        #expect(report.contains("HINT: the hint"))
        #expect(report.contains("CONTEXT: PL/pgSQL function inline_code_block line 4 at RAISE"))
        #expect(report.contains("in statement 2 of the up section (lines 3-9)"))
    }

    @Test func anErrorInsideAFunctionBodyNamesTheCallingStatement() throws {
        let (failure, _) = try failure("""
            -- migrate:up
            create function three() returns int language plpgsql as $fn$
            begin
              return 1 / 0;
            end
            $fn$;
            select three();
            """)
        let report = lines(failure)
        #expect(report[0].hasSuffix("3_bad.sql:7: division by zero (SQLSTATE 22012)"))
        #expect(report[1] == "    7 | select three();")
        #expect(report.contains { $0.hasPrefix("CONTEXT:") && $0.contains("PL/pgSQL function three() line 3") })
        #expect(report.contains("in statement 2 of the up section (line 7)"))
    }

    @Test func aStatementInsideADoBlockGetsAColumn() throws {
        let (failure, _) = try failure("""
            -- migrate:up
            do $$
            begin
              insert into one values ('nope');
            end
            $$;
            """)
        let report = lines(failure)
        #expect(report[0].hasSuffix("3_bad.sql:4:27: invalid input syntax for type integer: \"nope\" (SQLSTATE 22P02)"))
        #expect(report.contains("QUERY: insert into one values ('nope')"))
    }

    @Test func aStatementThatNeedsNoTransactionGetsAHint() throws {
        let (failure, _) = try failure("-- migrate:up\ncreate index concurrently one_id on one (id);\n")
        #expect(failure.description.contains("SQLSTATE 25001"))
        #expect(failure.description.contains("HINT: this statement cannot run in a transaction: mark the section `-- migrate:up transaction:false`"))
    }

    @Test func aDownSectionFailureKeepsTheMigrationApplied() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_one.sql": "-- migrate:up\ncreate table one (id int);\n-- migrate:down\ndrop table one;\n",
            "2_two.sql": "-- migrate:up\ncreate table two (id int);\n-- migrate:down\ndrop table two;\ndrop table nowhere;\n",
        ])
        _ = try folder.migrator(database).up()
        let failure = try #require(throws: MigrationSQLFailure.self) { try folder.migrator(database).down(.all) }
        #expect(failure.description.contains("2_two.sql:5: table \"nowhere\" does not exist (SQLSTATE 42P01)"))
        #expect(failure.description.contains("the rollback of 2 was undone: it stays applied"))
        #expect(try database.historyVersions() == ["1", "2"])
        #expect(try database.exists("two") && database.exists("one"))
    }

    /// The history row goes to the server with COMMIT: when writing it fails, COMMIT
    /// does not run and the migration is rolled back with it.
    @Test func aHistoryWriteThatFailsCommitsNothingOfItsMigration() throws {
        let (failure, database) = try failure(
            "-- migrate:up\ncreate table three (id int);\n"
                + "alter table pgwarden.schema_migrations add constraint refuses_three check (version <> '3');\n")
        #expect(failure.phase == .history)
        #expect(failure.description.contains("recording the migration in the history failed"), "\(failure)")
        #expect(failure.description.contains("SQLSTATE 23514"))
        #expect(try !database.exists("three"))
        #expect(try database.scalar("select count(*) from pg_constraint where conname = 'refuses_three'") == "0")
    }

    /// A COMMIT goes to the server with the next migration's BEGIN (one round trip):
    /// when it fails (a deferred foreign key checked at COMMIT), the migration is rolled
    /// back, reported as failing at COMMIT, and the next one never runs (the helper
    /// checks that `4_after` left nothing).
    @Test func aCommitThatFailsStopsTheRunBeforeTheNextMigration() throws {
        let (failure, database) = try failure(
            "-- migrate:up\ncreate table three (id int primary key, parent int references three (id) deferrable initially deferred);\n"
                + "insert into three values (1, 2);\n")
        #expect(failure.phase == .commit, "\(failure)")
        #expect(failure.outcome == .rolledBack)
        #expect(failure.description.contains("SQLSTATE 23503"), "\(failure)")
        #expect(try !database.exists("three"))
    }
}
