import Foundation
import Testing
@testable import WardenKit
import WardenPostgres
import TestSupport

/// The run's first round trip after `begin` carries the backend's pid, the limits, the
/// seal's identity, the storage mark with the catalog-write count and auth.identities'
/// columns (`RunOpening`): one round trip where there were five; its last carries the
/// rollback and the shared plans' deallocation. Counted on a plan with no setup and no checks, read on the
/// run's own session.
@Suite struct RunOpeningTests {
    private static let planText = """
        schemas: [public]
        personas:
          anon: { role: anon }
          ava: { role: authenticated, email: ava.opening@example.com }
        relations:
          note:
            sample: { body: "'probe'" }
            access: { anon: read, ava: read }
        """

    /// A twin database with `public.note`, which anon and signed-in users may read.
    private static func noteDatabase(_ label: String, withARow: Bool) throws -> Connection {
        let connection = try Connection(try TestCluster.newTwinDatabase(label).project)
        try connection.execute(
            """
            create table public.note (id bigint generated always as identity primary key, body text);
            alter table public.note enable row level security;
            create policy "anyone reads" on public.note for select to anon, authenticated using (true)
            """)
        if withARow { try connection.execute("insert into public.note (body) values ('one')") }
        return connection
    }

    @Test func aPlainRunTakesItsBudgetOfRoundTrips() throws {
        let connection = try Self.noteDatabase("opening", withARow: true)
        let timeout = try connection.query("select current_setting('statement_timeout')").scalar
        let before = connection.roundTrips
        var runner = AccessPlanRunner(
            connection: connection, plan: try AccessPlanParser(file: "opening.yml").parse(Self.planText))
        runner.readsCatalogInBackground = false
        let report = try runner.run()
        #expect(report.failures.map(\.name) == [])
        // begin; the opening (pid, limits, seal, storage mark, auth.identities'
        // columns); the exposed catalog with the schema and role questions; ava's
        // account; the sign-in's catalog with the clock; ava's session rows with the
        // truth; the probes; the notes; the rollback with the shared plans'
        // deallocation. (The opening was five round trips, the catalog, the schemas and
        // the roles three, the sign-in and the deallocation one each of their own:
        // seventeen in all.)
        #expect(connection.roundTrips - before == 9, "\(connection.roundTrips - before) round trips")
        // Nothing stays: the limits were the transaction's.
        #expect(try connection.query("select current_setting('statement_timeout')").scalar == timeout)
        #expect(try connection.query("select count(*)::text from pg_prepared_statements").scalar == "0")
    }

    @Test func withTheSecondSessionTheSetupCarriesTheClock() throws {
        let connection = try Self.noteDatabase("opening-setup", withARow: false)
        let plan = try AccessPlanParser(file: "opening.yml").parse(
            Self.planText + "\nsetup:\n  - insert into public.note (body) values ('from the setup')\n")
        let before = connection.roundTrips
        let report = try AccessPlanRunner(connection: connection, plan: plan).run()
        #expect(report.failures.map(\.name) == [])
        // On the run's session: begin; the opening; ava's account; the setup with the
        // clock and the catalog-write count after it; ava's session rows with the truth;
        // the probes; the rollback with the deallocation. (The clock and the sign-in were
        // round trips of their own.) The catalog and the notes are read on the second
        // session meanwhile.
        #expect(connection.roundTrips - before == 7, "\(connection.roundTrips - before) round trips")
    }

    @Test func insideTheCallersTransactionNothingPreparedStaysEither() throws {
        let connection = try Self.noteDatabase("opening-nested", withARow: true)
        try connection.execute("begin")
        try connection.execute("create temporary table callers_work (id int)")
        var runner = AccessPlanRunner(
            connection: connection, plan: try AccessPlanParser(file: "opening.yml").parse(Self.planText))
        runner.readsCatalogInBackground = false
        let failures = try runner.run().failures
        #expect(failures.map(\.name) == [], "\(failures)")
        #expect(connection.transactionStatus == .inTransaction)
        #expect(try connection.query("select count(*)::text from pg_prepared_statements").scalar == "0")
        #expect(try connection.query("select to_regclass('pg_temp.callers_work') is not null").scalar == "t")
        try connection.execute("rollback")
    }

    @Test func theBlockerWatchGetsTheRunsOwnBackend() throws {
        let connection = try Self.noteDatabase("opening-pid", withARow: false)
        let pid = try connection.query("select pg_backend_pid()::text").scalar.flatMap { Int($0) }
        let opening = try connection.rolledBack {
            try RunOpening.read(on: connection, limits: .init(), source: "opening.yml")
        }
        #expect(opening.backendPID == pid)
        #expect(opening.seal.adminRole == (try connection.query("select current_user::text").scalar))
        #expect(opening.catalogWrites != nil)
        #expect(opening.identityColumns.isSuperset(of: PlanAccountCreator.identityNeeds))
    }
}
