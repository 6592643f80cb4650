import Foundation
import Testing
import WardenKit
import TestSupport

/// Plan SQL cannot escape the run's rollback or change who the runner is: refused
/// when the plan is read, and, for what only shows at run time, stopped by the
/// runner's checks after every statement. Every case ends with the database's digest
/// (every table in every schema, roles, memberships, policies, settings) unchanged.
@Suite(.serialized) struct SealedRunTests {
    private var electricRidePlan: String {
        get throws { try String(contentsOfFile: ElectricRide.planPath, encoding: .utf8) }
    }

    /// Electric Ride's plan with an extra setup entry (before `relations:`).
    private func withSetup(_ entry: String) throws -> String {
        try electricRidePlan.replacingOccurrences(of: "\nrelations:\n", with: "  - \(entry)\n\nrelations:\n")
    }

    /// Electric Ride's plan with extra checks appended (the file ends in its checks).
    private func withChecks(_ checks: String) throws -> String {
        try electricRidePlan + "\n" + checks
    }

    private func run(_ text: String, on connection: Connection) throws -> AccessPlanReport {
        let plan = try AccessPlanParser(file: "hostile.yml").parse(text)
        return try AccessPlanRunner(connection: connection, plan: plan).run()
    }

    @Test func commitInSetupIsAPlanErrorAndChangesNothing() throws {
        let connection = try PrivateCluster.electricRide()
        let before = try DatabaseDigest.of(connection)
        let text = try withSetup("commit; begin")
        let error = try #require(throws: AccessPlanError.self) { try run(text, on: connection) }
        let line = try #require(text.components(separatedBy: "\n").firstIndex(of: "  - commit; begin")) + 1
        #expect(error.line == line)
        #expect(error.message.contains("COMMIT"))
        #expect(try DatabaseDigest.of(connection) == before)
        #expect(try connection.query("select count(*) from auth.users where email like '%.plan@example.com'").scalar == "0")
    }

    @Test func commitInACheckIsAPlanError() throws {
        let text = try withChecks(
            """
              - name: hostile
                as: anon
                sql: |
                  select 1;
                  commit; delete from public.saved
                expect: { row_count: 0 }
            """)
        let error = try #require(throws: AccessPlanError.self) { try AccessPlanParser(file: "p.yml").parse(text) }
        let sqlLine = try #require(text.components(separatedBy: "\n").firstIndex(of: "      commit; delete from public.saved")) + 1
        #expect(error.line == sqlLine)
    }

    @Test func aSessionRoleChangeAtRunTimeStopsTheRun() throws {
        // set_config('role', ..., false) is an ordinary SELECT, so only the second wall sees it.
        let connection = try PrivateCluster.electricRide()
        let before = try DatabaseDigest.of(connection)
        let error = try #require(throws: AccessPlanError.self) {
            try run(try withSetup("select set_config('role', 'authenticated', false)"), on: connection)
        }
        #expect(error.message.contains("broke the run's seal"))
        #expect(error.message.contains("current_user authenticated"))
        #expect(try DatabaseDigest.of(connection) == before)
        #expect(try connection.query("select current_user").scalar == "postgres")
        #expect(connection.transactionStatus == .idle)
    }

    @Test func aCommitInsideADoBlockCannotEndTheRun() throws {
        let connection = try PrivateCluster.electricRide()
        let before = try DatabaseDigest.of(connection)
        let error = try #require(throws: AccessPlanError.self) {
            try run(try withSetup("do $$ begin commit; end $$"), on: connection)
        }
        let setupEntries = try AccessPlanParser(file: "p.yml").parse(try electricRidePlan).setup.count
        #expect(error.message.contains("setup entry \(setupEntries + 1) failed"))
        #expect(try DatabaseDigest.of(connection) == before)
    }

    @Test func aCheckRunsAsItsPersonaNeverTheAdmin() throws {
        let connection = try PrivateCluster.electricRide()
        let before = try DatabaseDigest.of(connection)
        let report = try run(try withChecks(
            """
              - name: anon is anon
                as: anon
                sql: select current_user::text || '/' || session_user::text
                expect: { value: "anon/postgres" }
              - name: anon cannot delete saved rows
                as: anon
                sql: delete from public.saved
                expect: { row_count: 0 }
                verify: select count(*) > 0 from public.saved
              - name: the service role may delete every saved row, inside the run only
                as: service
                sql: delete from public.saved
                verify: select not exists (select 1 from public.saved)
            """), on: connection)
        let names = ["anon is anon", "anon cannot delete saved rows",
                     "the service role may delete every saved row, inside the run only"]
        for name in names {
            let result = try #require(report.results.first { $0.subject == name })
            #expect(result.passed, "\(name): \(result.observed)")
        }
        #expect(report.failures.isEmpty)
        #expect(try DatabaseDigest.of(connection) == before)
        #expect(try connection.query("select count(*) from public.saved").scalar != "0")
    }

    @Test func aCheckThatSwitchesBackToTheAdminStopsTheRun() throws {
        // SET ROLE is checked against the session user (the admin), so a persona's SQL
        // can name the admin through set_config; the seal sees it after the statement.
        let connection = try PrivateCluster.electricRide()
        let before = try DatabaseDigest.of(connection)
        let error = try #require(throws: AccessPlanError.self) {
            try run(try withChecks(
                """
                  - name: anon tries to become the admin
                    as: anon
                    sql: select set_config('role', 'postgres', false); delete from public.saved
                    expect: { row_count: 0 }
                """), on: connection)
        }
        #expect(error.message.contains("check 'anon tries to become the admin' broke the run's seal"))
        #expect(error.message.contains("current_user postgres"))
        #expect(try DatabaseDigest.of(connection) == before)
    }

    @Test func aHostileRunLeavesTheDigestEqual() throws {
        // Everything a plan may legally do, and more it may try, in one run.
        let connection = try PrivateCluster.electricRide()
        let before = try DatabaseDigest.of(connection)
        let hostile = try withSetup(
            """
            |
                create table public.leftover (id int); create role plan_made_role;
                grant anon to plan_made_role; alter role anon set statement_timeout = '1s';
                do $$ begin execute format('alter database %I set search_path = nowhere', current_database()); end $$;
                create policy plan_made on public.saved for select using (true);
                set local search_path = public; update auth.users set email = 'x' || email;
            """)
        let report = try run(hostile, on: connection)
        #expect(report.results.count > 150)
        #expect(try DatabaseDigest.of(connection) == before)
        #expect(connection.transactionStatus == .idle)
        // The digest does see such changes when they stay.
        try connection.execute("alter role anon set statement_timeout = '1s'")
        #expect(try DatabaseDigest.of(connection) != before)
        try connection.execute("alter role anon set statement_timeout = '3s'")  // the twin's own value
        #expect(try DatabaseDigest.of(connection) == before)
    }

    @Test func aRunInsideTheCallersTransactionKeepsTheCallersWork() throws {
        let connection = try PrivateCluster.electricRide()
        try connection.execute("begin; create table public.callers_own (id int); insert into public.callers_own values (7)")
        let report = try run(try electricRidePlan.replacingOccurrences(
            of: "relations:\n  colour:", with: "relations:\n  callers_own: { sample: { id: \"1\" }, access: { anon: all, authenticated: all, service_role: all } }\n  colour:"),
            on: connection)
        #expect(report.failures.isEmpty, "\(report.failures.map(\.name))")
        #expect(connection.transactionStatus == .inTransaction)
        #expect(try connection.query("select count(*) from public.callers_own").scalar == "1")
        #expect(try connection.query("select count(*) from auth.users where email like '%.plan@example.com'").scalar == "0")
        try connection.execute("rollback")
    }

    @Test func anUnknownPersonaRoleIsAPlanErrorWithItsLine() throws {
        let connection = try PrivateCluster.electricRide()
        let text = try electricRidePlan.replacingOccurrences(
            of: "  service:\n    role: service_role", with: "  service:\n    role: service_role\n  ghost: { role: ghost_role }")
        let before = try DatabaseDigest.of(connection)
        let error = try #require(throws: AccessPlanError.self) { try run(text, on: connection) }
        let line = try #require(text.components(separatedBy: "\n").firstIndex(of: "  ghost: { role: ghost_role }")) + 1
        #expect(error.line == line)
        #expect(error.message.contains("persona 'ghost' has role 'ghost_role', which does not exist"))
        #expect(try DatabaseDigest.of(connection) == before)
    }

    /// A persona role's own, shorter statement_timeout cancelling a probe is that probe's
    /// outcome (the Data API answers the request so), not the run's limit: it stopped the
    /// whole run, blaming the run's 30 s (a policy that took 10 s to JIT-compile).
    @Test func aPersonaRolesOwnTimeoutIsThatProbesOutcome() throws {
        let connection = try PrivateCluster.electricRide()
        try connection.execute(unsafeScript: """
            alter role anon set statement_timeout = '300ms';
            create table public.slow_things (id int primary key);
            insert into public.slow_things values (1);
            alter table public.slow_things enable row level security;
            create policy "slow" on public.slow_things for select to anon using ((select true from pg_sleep(1)));
            grant select on public.slow_things to anon;
            """)
        let before = try DatabaseDigest.of(connection)
        let report = try run(try electricRidePlan.replacingOccurrences(
            of: "relations:\n  colour:",
            with: "relations:\n  slow_things: { sample: { id: \"2\" }, access: { anon: read, ava: none, ben: none, service: all } }\n  colour:"),
            on: connection)
        let read = try #require(report.results.first { $0.subject == "public.slow_things" && $0.persona == "anon" && $0.probe == "select" })
        #expect(!read.passed)
        #expect(read.observed.contains("canceled: it ran longer than anon's own statement_timeout (300ms), as the Data API cancels such a request"),
                "\(read.observed)")
        #expect(report.results.contains { $0.subject == "public.colour" }, "the rest of the run went on")
        #expect(try DatabaseDigest.of(connection) == before)
        try connection.execute("alter role anon set statement_timeout = '3s'")
    }
}
