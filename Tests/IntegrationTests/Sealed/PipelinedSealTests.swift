import Foundation
import Testing
import WardenKit
import TestSupport

/// The seal in pipelined units: a statement that changes who runs the SQL stops the
/// run, and no statement after it runs. A sequence, which no rollback resets, shows
/// that the next statement never ran.
@Suite(.serialized) struct PipelinedSealTests {
    private var electricRidePlan: String {
        get throws { try String(contentsOfFile: ElectricRide.planPath, encoding: .utf8) }
    }

    private func run(_ text: String, on connection: Connection) throws -> AccessPlanReport {
        let plan = try AccessPlanParser(file: "hostile.yml").parse(text)
        return try AccessPlanRunner(connection: connection, plan: plan).run()
    }

    /// A sequence outside the plan's schemas that every role may advance.
    private func witness(_ connection: Connection) throws {
        try connection.execute("""
            create schema if not exists seal_witness;
            create sequence if not exists seal_witness.after_breach;
            grant usage on schema seal_witness to anon, authenticated, service_role;
            grant usage on sequence seal_witness.after_breach to anon, authenticated, service_role;
            """)
    }

    private func advanced(_ connection: Connection) throws -> String? {
        try connection.query("select is_called::text from seal_witness.after_breach").scalar
    }

    @Test func nothingInTheSetupRunsAfterAStatementThatChangedTheRole() throws {
        let connection = try PrivateCluster.electricRide()
        try witness(connection)
        let before = try DatabaseDigest.of(connection)
        let text = try electricRidePlan.replacingOccurrences(
            of: "\nrelations:\n",
            with: "  - select set_config('role', 'anon', false); select nextval('seal_witness.after_breach')\n\nrelations:\n")
        let error = try #require(throws: AccessPlanError.self) { try run(text, on: connection) }
        #expect(error.message.contains("broke the run's seal"), "\(error.message)")
        #expect(error.message.contains("current_user anon"), "\(error.message)")
        #expect(try advanced(connection) == "false")
        #expect(try DatabaseDigest.of(connection) == before)
        #expect(try connection.query("select current_user").scalar == "postgres")
    }

    @Test func aBeforeInsertThatChangesTheRoleStopsTheRunBeforeTheInsert() throws {
        let connection = try PrivateCluster.electricRide()
        try witness(connection)
        let before = try DatabaseDigest.of(connection)
        let text = try electricRidePlan.replacingOccurrences(
            of: "before_insert: delete from public.patron where user_id = auth.uid()",
            with: "before_insert: select set_config('role', 'authenticated', false); select nextval('seal_witness.after_breach')")
        let error = try #require(throws: AccessPlanError.self) { try run(text, on: connection) }
        #expect(error.message.contains("the before_insert SQL of public.patron broke the run's seal"), "\(error.message)")
        #expect(try advanced(connection) == "false")
        #expect(try DatabaseDigest.of(connection) == before)
    }

    @Test func aChecksSQLAfterItsPersonaBecameTheAdminNeverRuns() throws {
        let connection = try PrivateCluster.electricRide()
        try witness(connection)
        let before = try DatabaseDigest.of(connection)
        let text = try electricRidePlan + """

              - name: anon becomes the admin, then advances the witness
                as: anon
                sql: select set_config('role', 'postgres', false); select nextval('seal_witness.after_breach')
                expect: { row_count: 1 }
            """
        let error = try #require(throws: AccessPlanError.self) { try run(text, on: connection) }
        #expect(error.message.contains("check 'anon becomes the admin, then advances the witness' broke the run's seal"), "\(error.message)")
        #expect(try advanced(connection) == "false")
        #expect(try DatabaseDigest.of(connection) == before)
    }
}
