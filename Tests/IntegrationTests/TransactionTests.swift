import TestSupport
import WardenKit
import Testing

@Suite struct TransactionTests {
    @Test func commitsTheBody() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create table t (id int)")
        try connection.transaction { try connection.execute("insert into t values (1)") }
        #expect(try connection.query("select count(*) from t").scalar == "1")
        #expect(connection.transactionStatus == .idle)
    }

    @Test func rollsBackAFailedTransactionAndRethrowsTheCause() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create table t (id int primary key)")
        let error = try #require(throws: PGError.self) {
            try connection.transaction {
                try connection.execute("insert into t values (1); create table t2 (x int)")
                try connection.execute("insert into t values (1)")
            }
        }
        #expect(error.sqlState == .uniqueViolation)
        #expect(try connection.query("select count(*) from t").scalar == "0")
        #expect(try connection.query("select to_regclass('t2')::text").scalar == nil)
        #expect(connection.transactionStatus == .idle)
    }

    @Test func rollsBackToASavepointAndKeepsTheRest() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create table t (id int primary key)")
        try connection.transaction {
            try connection.execute("insert into t values (1)")
            #expect(throws: PGError.self) {
                try connection.savepoint {
                    try connection.execute("insert into t values (2)")
                    try connection.execute("insert into t values (1)")
                }
            }
            let inner = try connection.savepoint { try connection.query("select count(*) from t").scalar }
            #expect(inner == "1")
        }
        #expect(try connection.query("select array_agg(id order by id)::text from t").scalar == "{1}")
    }

    @Test func reportsACommitThatTheServerTurnedIntoRollback() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create table t (id int)")
        let error = try #require(throws: TransactionError.self) {
            try connection.transaction {
                try connection.execute("insert into t values (1)")
                _ = try? connection.execute("select 1/0")  // swallowed: the transaction is now failed
            }
        }
        #expect(error.phase == .commit)
        #expect(try connection.query("select count(*) from t").scalar == "0")
    }

    @Test func reportsAFailedBeginSeparately() throws {
        let connection = try TestCluster.connect()
        connection.close()
        let error = try #require(throws: TransactionError.self) { try connection.transaction { () } }
        #expect(error.phase == .begin)
    }

    @Test func keepsTheCauseWhenTheRollbackFailsToo() throws {
        let connection = try TestCluster.connect()
        struct Cause: Error {}
        let error = try #require(throws: TransactionError.self) {
            try connection.transaction {
                connection.close()  // the rollback cannot reach the server
                throw Cause()
            }
        }
        #expect(error.phase == .rollback)
        #expect(error.underlying is Cause)
        #expect(error.rollbackError != nil)
    }
}
