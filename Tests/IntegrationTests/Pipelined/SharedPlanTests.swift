import Foundation
import Testing
import WardenKit
import TestSupport

/// Probes that send the same text as the same role share one prepared statement
/// (`PlanReuse`). What each proves must not change: a name is parsed as the role that
/// runs it (schema `USAGE` is checked when a name is looked up, not when a plan runs),
/// a persona whose Parse failed still gets its own refusal, and nothing stays.
@Suite struct SharedPlanTests {
    /// `hidden.note`: every persona role may select it, only `authenticated` may use
    /// its schema; personas in this order, so a plan shared across roles would let
    /// anon reuse what ava's probe prepared.
    private static let plan = """
        schemas: [hidden]
        personas:
          ava: { role: authenticated, email: ava.shared@example.com }
          ben: { role: authenticated, email: ben.shared@example.com }
          anon: { role: anon }
          visitor: { role: anon }
        relations:
          hidden.note:
            sample: { id: "3", body: "'three'" }
            access:
              ava: read
              ben: read
              anon: denied
              visitor: denied
        """

    private func database() throws -> Connection {
        let connection = try Connection(try TestCluster.newTwinDatabase("shared").project)
        try connection.execute(
            """
            create schema hidden;
            create table hidden.note (id int primary key, body text);
            insert into hidden.note values (1, 'one'), (2, 'two');
            grant select on hidden.note to anon, authenticated;
            grant usage on schema hidden to authenticated
            """)
        return connection
    }

    @Test func aSharedPlanIsTheRoleOwnAndAFailedParseStillRefuses() throws {
        let connection = try database()
        let report = try AccessPlanRunner(
            connection: connection, plan: AccessPlanParser(file: "shared.yml").parse(Self.plan)
        ).run()
        let observed = Dictionary(
            report.results.filter { $0.operation == .select }.map { ($0.persona ?? "", $0.observed) },
            uniquingKeysWith: { first, _ in first })
        #expect(observed["ava"] == "all (2 rows)")
        #expect(observed["ben"] == "all (2 rows)")
        // anon has select on the table but no usage on its schema: refused at parse,
        // for visitor too, whose probe was to reuse anon's plan (its Parse failed, so
        // the probe ran again unnamed).
        #expect(observed["anon"] == "none (permission denied)")
        #expect(observed["visitor"] == "none (permission denied)")
        #expect(report.failures.map(\.name) == [])
        #expect(try connection.query("select count(*)::text from pg_prepared_statements").scalar == "0")
    }

    /// The shared plans outlive the batches that made them, and a run that stops
    /// (here a check that breaks the seal, after the relations' batches ran) still
    /// leaves none.
    @Test func aRunThatStopsLeavesNoSharedPlan() throws {
        let connection = try database()
        let plan = Self.plan + """

            checks:
              - name: becomes someone else for the rest of the session
                as: ava
                sql: select set_config('role', 'anon', false)
                expect: { value: "anon" }
            """
        do {
            _ = try AccessPlanRunner(connection: connection, plan: AccessPlanParser(file: "shared.yml").parse(plan)).run()
            Issue.record("the run did not stop")
        } catch {
            #expect("\(error)".contains("seal"), "\(error)")
        }
        #expect(try connection.query("select count(*)::text from pg_prepared_statements").scalar == "0")
    }

    /// The run plans joins in the order they are written (`JoinOrderSetting`), set
    /// `LOCAL`: a persona's check sees it, and the session has its own values back once
    /// the run is over.
    @Test func theJoinOrderSettingHoldsForTheRunOnly() throws {
        let connection = try database()
        let plan = Self.plan + """

            checks:
              - name: plans as the run sets
                as: ava
                sql: select current_setting('join_collapse_limit') || ' ' || current_setting('from_collapse_limit')
                expect: { value: "1 1" }
            """
        let report = try AccessPlanRunner(connection: connection, plan: AccessPlanParser(file: "shared.yml").parse(plan)).run()
        #expect(report.failures.map(\.name) == [])
        #expect(report.results.contains { $0.subjectKind == .check && $0.subject == "plans as the run sets" && $0.passed })
        let after = try connection.query(
            "select current_setting('join_collapse_limit') || ' ' || current_setting('from_collapse_limit')").scalar
        #expect(after == "8 8")
    }
}
