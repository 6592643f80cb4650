import Foundation
import Testing
import WardenPostgres
import WardenKit
import TestSupport

/// `PipelineStream`: units sent one by one as they are made, read whole at the end,
/// answer as a `PipelinedBatch` sent at once does; a stream dropped before it finishes
/// leaves the connection usable.
@Suite struct PipelineStreamTests {
    @Test func unitsSentAsTheyAreMadeAnswerAsOneBatchDoes() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create temporary table kept (id int primary key)")
        let units: [[SQL]] = [
            ["insert into kept values (\(1))", "insert into kept values (\(1))", "insert into kept values (\(2))"],
            ["insert into kept values (\(3))", "select count(*)::text from kept"],
        ]
        let stream = try PipelineStream(connection, first: units[0][0].text)
        for unit in units { try stream.send(unit.map(PipelinedBatch.Statement.init)) }
        #expect(stream.sentUnits == 2)
        let outcomes = try stream.finish()
        #expect(outcomes.map(\.count) == [3, 2])
        guard case .result = outcomes[0][0], case .error(let error) = outcomes[0][1], case .skipped = outcomes[0][2],
              case .result(let count) = outcomes[1][1]
        else {
            Issue.record("unexpected outcomes: \(outcomes)")
            return
        }
        #expect(error.sqlState == .uniqueViolation)
        #expect(count.scalar == "1")
        // Out of pipeline mode: the connection answers one statement at a time again.
        #expect(try connection.query("select array_agg(id order by id)::text from kept").scalar == "{3}")
    }

    /// More than the socket holds, sent before anything is read: the stream reads what
    /// the server answers while it waits to send, so neither side waits for the other.
    @Test func aStreamLargerThanTheSocketDoesNotStall() throws {
        let connection = try TestCluster.connect()
        let stream = try PipelineStream(connection, first: "select")
        let padding = String(repeating: "x", count: 2_000)
        for index in 0..<2_000 {
            try stream.send([PipelinedBatch.Statement("select \(index)::text || \(padding)::text")])
        }
        let outcomes = try stream.finish()
        #expect(outcomes.count == 2_000)
        #expect(try outcomes[1_999][0].get().scalar == "1999" + padding)
    }

    /// A stream whose maker threw before finishing it: what was sent still ran, its
    /// answers are read and dropped, and the connection leaves pipeline mode.
    @Test func aDroppedStreamLeavesTheConnectionUsable() throws {
        let connection = try TestCluster.connect()
        try connection.execute("create temporary table kept (id int)")
        do {
            let stream = try PipelineStream(connection, first: "insert")
            try stream.send([PipelinedBatch.Statement("insert into kept values (\(1))")])
            try stream.send([PipelinedBatch.Statement("select pg_sleep(0.05)")])
        }
        #expect(try connection.query("select count(*)::text from kept").scalar == "1")
        #expect(connection.transactionStatus == .idle)
    }
}

/// A run that stops while its probes are being sent (here the truth of the second
/// relation fails, after the first relation's probes went out): what was sent is read
/// and dropped, the run is rolled back, and the connection is left as it was.
@Suite struct StreamedRunStopTests {
    @Test func aRunThatStopsWhileItsProbesAreSentLeavesTheConnectionAsItWas() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("stream").project)
        try connection.execute(
            """
            create table public.alpha (id int primary key, body text);
            create table public.beta (id int primary key, user_id uuid);
            insert into public.alpha values (1, 'one');
            insert into public.beta values (1, null)
            """)
        let plan = try AccessPlanParser(file: "stop.yml").parse(
            """
            schemas: [public]
            personas:
              ava: { role: authenticated, email: ava.stream@example.com }
            relations:
              alpha:
                sample: { id: "2", body: "'two'" }
                access: { ava: all }
              beta:
                owner: (1 / (id - 1)) = 0
                sample: { id: "2" }
                access: { ava: { select: own } }
            """)
        #expect(throws: RelationTruthError.self) { try AccessPlanRunner(connection: connection, plan: plan).run() }
        #expect(connection.transactionStatus == .idle)
        #expect(try connection.query("select count(*)::text from pg_prepared_statements").scalar == "0")
        #expect(try connection.query("select count(*)::text from auth.users").scalar == "0")
        #expect(try connection.query("select count(*)::text from public.alpha").scalar == "1")
    }
}
