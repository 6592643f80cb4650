import Foundation
import Testing
import WardenPostgres
import TestSupport

/// `PipelinedBatch`: every unit in one round trip; a statement's error skips only the
/// rest of its unit, and every statement's result, error or skip comes back.
@Suite struct PipelinedBatchTests {
    @Test func anErrorSkipsOnlyTheRestOfItsUnit() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create temporary table kept (id int primary key)")
        var batch = PipelinedBatch()
        batch.add(["insert into kept values (\(1))", "insert into kept values (\(1))", "insert into kept values (\(2))"])
        batch.add(["insert into kept values (\(3))", "select count(*)::text from kept"])
        let outcomes = try connection.run(batch)
        #expect(outcomes.map(\.count) == [3, 2])
        guard case .result(let first) = outcomes[0][0], case .error(let error) = outcomes[0][1],
              case .skipped = outcomes[0][2], case .result(let count) = outcomes[1][1]
        else {
            Issue.record("unexpected outcomes: \(outcomes)")
            return
        }
        #expect(first.affectedRows == 1)
        #expect(error.sqlState == .uniqueViolation)
        // Outside a transaction block each unit is its own implicit transaction: the
        // failed unit's first insert is gone, the second unit's row is there.
        #expect(count.scalar == "1")
        #expect(try connection.query("select array_agg(id order by id)::text from kept").scalar == "{3}")
    }

    /// COPY TO STDOUT inside a batch (plan SQL, a pgTAP file or a migration may hold
    /// one): its data is read and dropped, as outside a pipeline, and the statements
    /// after it still run and answer.
    @Test func copyToStdoutInABatchIsDrainedAndTheRestRuns() throws {
        let connection = try TestCluster.connect()
        var batch = PipelinedBatch()
        batch.add([SQL(raw: "copy (select generate_series(1, 3)) to stdout"), "select \("after")::text"])
        batch.add(["select 2::text"])
        let outcomes = try connection.run(batch)
        guard case .result = outcomes[0][0], case .result(let after) = outcomes[0][1], case .result(let two) = outcomes[1][0]
        else {
            Issue.record("unexpected outcomes: \(outcomes)")
            return
        }
        #expect(after.scalar == "after")
        #expect(two.scalar == "2")
        let migrationLike = try connection.execute(unsafeStatements: ["copy (select 1) to stdout", "select 'next'"])
        #expect(migrationLike.last?.scalar == "next")
    }

    @Test func aTextHoldingTwoStatementsIsRefusedAndTheNextUnitStillRuns() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create temporary table kept (id int)")
        var batch = PipelinedBatch()
        batch.add([SQL(raw: "insert into kept values (1); insert into kept values (2)")])
        batch.add([SQL(raw: "insert into kept values (3)")])
        let outcomes = try connection.run(batch)
        guard case .error(let error) = outcomes[0][0] else {
            Issue.record("the two-statement text ran: \(outcomes)")
            return
        }
        #expect(error.sqlState == .syntaxError)
        #expect(try connection.query("select array_agg(id)::text from kept").scalar == "{3}")
    }

    @Test func valuesAreBoundNeverSpliced() throws {
        let connection = try TestCluster.connect()
        let hostile = "x'); drop table pg_class; --"
        var batch = PipelinedBatch()
        batch.add(["select \(hostile)::text"])
        let outcomes = try connection.run(batch)
        #expect(try outcomes[0][0].get().scalar == hostile)
    }

    /// A named prepared statement: prepared once, run again by later units with their
    /// own values; a unit that runs a name whose Parse failed gets 26000, and the
    /// statement is gone once deallocated.
    @Test func aPreparedStatementIsReusedAndAFailedParseLeavesNoName() throws {
        let connection = try TestCluster.connect()
        let name = connection.nextPreparedStatementName()
        let broken = connection.nextPreparedStatementName()
        var batch = PipelinedBatch()
        typealias Statement = PipelinedBatch.Statement
        batch.add(statements: [Statement("select (\(1)::int + 1)::text").preparing(as: name)])
        batch.add(statements: [Statement("select (\(41)::int + 1)::text").reusing(name)])
        let missing = Statement(SQL(raw: "select * from no_such_table"))
        batch.add(statements: [missing.preparing(as: broken), Statement("select 1")])
        batch.add(statements: [missing.reusing(broken)])
        let outcomes = try connection.run(batch)
        #expect(try outcomes[0][0].get().scalar == "2")
        #expect(try outcomes[1][0].get().scalar == "42")
        guard case .error(let parseError) = outcomes[2][0], case .skipped = outcomes[2][1],
              case .error(let notPrepared) = outcomes[3][0]
        else {
            Issue.record("unexpected outcomes: \(outcomes)")
            return
        }
        #expect(parseError.sqlState == .undefinedTable)
        #expect(notPrepared.sqlState == "26000")
        #expect(try connection.query("select array_agg(name order by name)::text from pg_prepared_statements").scalar == "{\(name)}")
        try connection.execute("deallocate \(identifier: name)")
        #expect(try connection.query("select count(*)::text from pg_prepared_statements").scalar == "0")
    }
}
