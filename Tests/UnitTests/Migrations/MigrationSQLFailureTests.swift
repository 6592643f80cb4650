import Testing
@testable import WardenKit
import TestSupport

/// The SQL error report, from errors shaped like the server's.
@Suite struct MigrationSQLFailureTests {
    let file: MigrationFile

    init() throws {
        file = try MigrationDirectory.parse(fileName: "20261121000400_create_listing.sql", text: """
            -- migrate:up
            create table a (id int primary key);
            insert into a values (1);
            do $$
            begin
              raise exception 'boom';
            end
            $$;
            create tabel foo (
              id int
            );
            -- migrate:down
            drop table a;
            """)
    }

    func report(_ error: PGError, statementIndex: Int? = nil, earlier: Int = 0) -> String {
        MigrationSQLFailure(
            file: file, direction: .up, underlying: error, phase: .statement, sentOffset: file.up.startOffset,
            statementIndex: statementIndex ?? error.completedStatements, outcome: .rolledBack,
            earlierInRun: earlier
        ).description
    }

    @Test func aPositionBecomesFileLineAndColumnWithACaret() {
        var error = PGError(kind: .server, message: "syntax error at or near \"tabel\"", sqlState: "42601",
                                  detail: "a detail", hint: "a hint")
        let text = file.up.sql
        let offset = text.unicodeScalars.distance(
            from: text.unicodeScalars.startIndex, to: text.range(of: "tabel")?.lowerBound ?? text.startIndex)
        error.position = offset + 1  // 1-based, as the server sends it
        error.completedStatements = 0
        let lines = report(error, earlier: 3).split(separator: "\n").map(String.init)
        #expect(lines[0] == "migrations/20261121000400_create_listing.sql:9:8: syntax error at or near \"tabel\" (SQLSTATE 42601)")
        #expect(lines[1] == "    9 | create tabel foo (")
        #expect(lines[2] == "      |        ^")
        #expect(lines.contains("DETAIL: a detail"))
        #expect(lines.contains("HINT: a hint"))
        #expect(lines.contains("in statement 4 of the up section (lines 9-11)"))
        #expect(lines.last == "migration 20261121000400 was rolled back: nothing of it remains; 3 earlier migrations of this run stay applied")
    }

    @Test func withoutAPositionTheFailingStatementIsNamed() {
        var error = PGError(kind: .server, message: "duplicate key", sqlState: "23505", detail: "Key (id)=(1) already exists.")
        error.completedStatements = 1
        let lines = report(error).split(separator: "\n").map(String.init)
        #expect(lines[0] == "migrations/20261121000400_create_listing.sql:3: duplicate key (SQLSTATE 23505)")
        #expect(lines[1] == "    3 | insert into a values (1);")
        #expect(lines.contains("in statement 2 of the up section (line 3)"))
    }

    @Test func aDoBlockErrorPointsAtTheBodyLine() {
        var error = PGError(kind: .server, message: "boom", sqlState: "P0001")
        error.completedStatements = 2
        error.context = "PL/pgSQL function inline_code_block line 3 at RAISE"
        let lines = report(error).split(separator: "\n").map(String.init)
        #expect(lines[0] == "migrations/20261121000400_create_listing.sql:6: boom (SQLSTATE P0001)")
        #expect(lines[1] == "    6 |   raise exception 'boom';")
        #expect(lines.contains("CONTEXT: PL/pgSQL function inline_code_block line 3 at RAISE"))
        #expect(lines.contains("in statement 3 of the up section (lines 4-8)"))
    }

    @Test func anInternalQueryFoundInTheStatementGivesAColumn() {
        var error = PGError(kind: .server, message: "bad", sqlState: "42601")
        error.completedStatements = 2
        error.internalQuery = "raise exception 'boom'"
        error.internalPosition = 7
        let lines = report(error).split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("migrations/20261121000400_create_listing.sql:6:9: bad"))
        #expect(lines.contains("QUERY: raise exception 'boom'"))
    }

    @Test func aTransactionHintForStatementsThatCannotRunInOne() {
        var error = PGError(kind: .server, message: "CREATE INDEX CONCURRENTLY cannot run inside a transaction block",
                                  sqlState: .activeSQLTransaction)
        error.completedStatements = 0
        #expect(report(error).contains("HINT: this statement cannot run in a transaction: mark the section `-- migrate:up transaction:false`"))
    }
}
