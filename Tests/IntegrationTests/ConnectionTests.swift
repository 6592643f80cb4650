import Foundation
import Testing
import WardenKit
import TestSupport

@Suite struct ConnectionTests {
    @Test func connectsAndQueries() throws {
        let connection = try TestCluster.connect()
        #expect(try connection.query("select 1 + 1 as two").scalar == "2")
        #expect(connection.serverVersion >= 150000)
    }

    @Test func runsManyStatementsInOneText() throws {
        let connection = try TestCluster.connect()
        let results = try connection.execute("""
            create table t (id int primary key, name text);
            insert into t values (1, 'a'), (2, 'b');
            update t set name = 'c' where id = 2;
            select id, name from t order by id;
            """)
        #expect(results.map(\.commandTag) == ["CREATE TABLE", "INSERT 0 2", "UPDATE 1", "SELECT 2"])
        #expect(results[1].affectedRows == 2)
        #expect(results[3].columns == ["id", "name"])
        #expect(results[3].rows == [["1", "a"], ["2", "c"]])
    }

    /// The seal's last wall: a text sent as one statement is one statement or an error.
    @Test func oneStatementPerMessageRefusesATextHoldingTwo() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create temporary table kept (id int)")
        #expect(try connection.execute(unsafeStatement: "insert into kept values (1);").affectedRows == 1)
        let error = try #require(throws: PGError.self) {
            try connection.execute(unsafeStatement: "select 1; insert into kept values (2)")
        }
        #expect(error.sqlState == .syntaxError)
        #expect(error.message.contains("cannot insert multiple commands"))
        #expect(try connection.query("select count(*) from kept").scalar == "1")
    }

    @Test func pipelinedStatementsStopAtTheFirstErrorAndNameIt() throws {
        let connection = try TestCluster.connect()
        try connection.execute("begin; create temporary table p (id int primary key)")
        let results = try connection.execute(unsafeStatements: (1...500).map { "insert into p values (\($0))" })
        #expect(results.count == 500)
        let error = try #require(throws: PGError.self) {
            try connection.execute(unsafeStatements: ["insert into p values (501)", "insert into p values (1)", "insert into p values (502)"])
        }
        #expect(error.sqlState == .uniqueViolation && error.completedStatements == 1)
        #expect(error.sql == "insert into p values (1)")
        try connection.execute("rollback")
        // Still usable, and out of pipeline mode.
        #expect(try connection.query("select 2").scalar == "2")
        // A statement that returns many rows does not stall the pipeline.
        let big = try connection.execute(unsafeStatements: ["select repeat('x', 1000) from generate_series(1, 20000)", "select 1"])
        #expect(big.first?.rows.count == 20000 && big.last?.scalar == "1")
    }

    @Test func bindsParametersWithNullsAndNonASCIIText() throws {
        let connection = try TestCluster.connect()
        let text = "Zoë drove 東京 → Kraków 🚗 'quoted'; drop table x; --"
        let result = try connection.query("select \(text)::text as a, \(String?.none)::text as b, length(\(text)) as n")
        #expect(result.rows == [[text, nil, String(text.count)]])
    }

    @Test func reportsSyntaxErrorWithSQLStateAndPosition() throws {
        let connection = try TestCluster.connect()
        let sql = "select 1;\nselect * frm t"
        do {
            try connection.execute(unsafeScript: sql)
            Issue.record("expected a syntax error")
        } catch let error as PGError where error.sqlState == .syntaxError {
            let offset = try #require(error.position)
            let characters = Array(sql)
            #expect(String(characters[(offset - 1)..<(offset + 2)]) == "frm")
            // The whole text is parsed before anything runs, so nothing completed.
            #expect(error.completedStatements == 0)
            #expect(error.severity == "ERROR")
            #expect(error.sql == sql)
        }
    }

    @Test func countsTheStatementsThatRanBeforeARuntimeError() throws {
        let connection = try TestCluster.connect()
        let error = try #require(throws: PGError.self) {
            try connection.execute("create table a (x int); select 1/0; create table b (x int)")
        }
        #expect(error.sqlState == .divisionByZero)
        #expect(error.position == nil)
        #expect(error.completedStatements == 1)
    }

    @Test func carriesDetailHintAndConstraint() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create table u (id int primary key); insert into u values (1)")
        let error = try #require(throws: PGError.self) { try connection.execute("insert into u values (1)") }
        #expect(error.sqlState == .uniqueViolation)
        #expect(error.detail == "Key (id)=(1) already exists.")
        #expect(error.constraintName == "u_pkey")
        #expect(error.tableName == "u")
    }

    @Test func capturesNoticesThroughTheHandler() throws {
        let box = NoticeBox()
        let connection = try TestCluster.connect(onNotice: { box.notices.append($0) })
        try connection.execute("do $$ begin raise notice 'hello %', 42; raise warning 'careful' using hint = 'h'; end $$")
        #expect(box.notices.map(\.message) == ["hello 42", "careful"])
        #expect(box.notices.map(\.severity) == ["NOTICE", "WARNING"])
        #expect(box.notices.last?.hint == "h")
    }

    @Test func reportsInternalQueryOfFunctionBodies() throws {
        let connection = try TestCluster.connect()
        try connection.execute("""
            create function boom() returns int language plpgsql as $$
            begin return (select 1 / 0); end $$;
            """)
        let error = try #require(throws: PGError.self) { try connection.execute("select boom()") }
        #expect(error.sqlState == .divisionByZero)
        #expect(error.context?.contains("PL/pgSQL function boom()") == true)
    }

    @Test func failsToConnectWithoutPrintingThePassword() throws {
        let secret = "S3cret-Pa55word"
        let settings = try ConnectionSettings("postgresql://alice:\(secret)@127.0.0.1:1/app?connect_timeout=2")
        let error = try #require(throws: PGError.self) { try Connection(settings) }
        #expect(error.kind == .connection)
        #expect(!"\(error)".contains(secret))
        #expect("\(error)".contains("alice:****@127.0.0.1"))
    }

    @Test func reportsAMissingDatabase() throws {
        let cluster = try TestCluster.cluster
        let error = try #require(throws: PGError.self) {
            try Connection(cluster.settings(database: "no_such_database"))
        }
        #expect(error.kind == .connection)
        #expect(error.sqlState == .invalidCatalogName)
    }

    @Test func closedConnectionRefusesWork() throws {
        let connection = try TestCluster.connect()
        connection.close()
        connection.close()
        #expect(throws: PGError.self) { try connection.execute("select 1") }
    }
}

/// Collects notices in a test (single-threaded use).
final class NoticeBox: @unchecked Sendable {
    var notices: [PGNotice] = []
}
