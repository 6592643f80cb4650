import Foundation
import Testing
import WardenKit
import TestSupport

/// Issue 15: `test` is bounded (a lock held by another session, a statement that runs
/// on), names the blocking session, exits 75 and leaves nothing; a plan naming no real
/// schema is a plan error; what the rollback cannot undo is named.
@Suite struct BoundedRunTests {
    private func electricRide() throws -> (url: String, connection: Connection) {
        let connection = try ElectricRide.database()
        let cluster = try TestCluster.cluster
        let url = cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: cluster.projectUser)
        return (url, connection)
    }

    private func plan(replacing target: String, with replacement: String) throws -> URL {
        let text = try String(contentsOfFile: ElectricRide.planPath, encoding: .utf8)
        guard text.contains(target) else { throw CancellationError() }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-plan.yml")
        try text.replacingOccurrences(of: target, with: replacement).write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func aLockHeldByAnotherSessionStopsTheRunNamingTheBlocker() throws {
        let (url, connection) = try electricRide()
        let before = try DatabaseDigest.ofDatabase(connection)
        let blocker = try Connection(connection.settings)
        try blocker.execute("set application_name = 'vacuum-full-elsewhere'; begin; lock table public.saved in access exclusive mode")
        let blockerPID = try blocker.query("select pg_backend_pid()").scalar ?? "?"
        let clock = ContinuousClock()
        let started = clock.now
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--plan", ElectricRide.planPath, "--plan-lock-timeout", "1"],
            environment: PgwardenCLI.cleanEnvironment())
        let elapsed = clock.now - started
        try blocker.execute("rollback")
        #expect(result.status == 75, "\(result.all)")
        #expect(result.standardError.contains("(lock timeout); nothing was changed, the run was rolled back"), "\(result.all)")
        #expect(result.standardError.contains("blocked by pid \(blockerPID) (application vacuum-full-elsewhere, idle in transaction"),
                "\(result.all)")
        #expect(elapsed < .seconds(30))
        #expect(try DatabaseDigest.ofDatabase(connection) == before)
        #expect(try connection.query("select count(*) from pg_stat_activity where state = 'idle in transaction' and datname = current_database()").scalar == "0")
    }

    @Test func aStatementThatRunsOnStopsTheRun() throws {
        let (url, connection) = try electricRide()
        let before = try DatabaseDigest.ofDatabase(connection)
        let plan = try plan(replacing: "\nchecks:\n", with: "\nchecks:\n  - name: sleeps\n    as: ava\n    sql: select pg_sleep(20)\n    expect: { value: \"\" }\n")
        defer { try? FileManager.default.removeItem(at: plan) }
        let clock = ContinuousClock()
        let started = clock.now
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--plan", plan.path, "--plan-statement-timeout", "1"],  // shorter than the persona role's 8 s: the run's cap holds
            environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 75, "\(result.all)")
        #expect(result.standardError.contains("running check 'sleeps' (statement timeout)"), "\(result.all)")
        #expect(clock.now - started < .seconds(7), "the run's 1 s cap, not authenticated's 8 s")
        let after = try DatabaseDigest.ofDatabase(connection)
        #expect(after == before, "changed: \(after.keys.filter { after[$0] != before[$0] }.sorted())")
    }

    @Test(arguments: ["[pubic]", "[Public]", "[]"])
    func aSchemaTheDatabaseLacksIsAPlanError(_ schemas: String) throws {
        let (url, connection) = try electricRide()
        let before = try DatabaseDigest.ofDatabase(connection)
        let text = try String(contentsOfFile: ElectricRide.planPath, encoding: .utf8)
        let plan: URL
        if text.contains("\nschemas:") {
            let line = try #require(text.components(separatedBy: "\n").first { $0.hasPrefix("schemas:") })
            plan = try self.plan(replacing: line, with: "schemas: \(schemas)")
        } else {
            plan = try self.plan(replacing: "\npersonas:", with: "\nschemas: \(schemas)\npersonas:")
        }
        defer { try? FileManager.default.removeItem(at: plan) }
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--plan", plan.path], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.status == 65, "\(result.all)")
        let expected = schemas == "[]" ? "'schemas' is empty" : "does not exist in the database"
        #expect(result.standardError.hasPrefix("pgwarden: \(plan.path):"), "\(result.all)")
        #expect(result.standardError.contains(expected), "\(result.all)")
        #expect(result.standardOutput.isEmpty)
        #expect(try DatabaseDigest.ofDatabase(connection) == before)
    }

    @Test func aTriggerWritingThroughDblinkIsNamedInTheReport() throws {
        let (url, connection) = try electricRide()
        try connection.execute(
            """
            create function public.audit_elsewhere() returns trigger language plpgsql as $$
            begin
              if false then perform dblink_exec('dbname=audit', 'insert into log values (1)'); end if;
              return new;
            end $$;
            revoke execute on function public.audit_elsewhere() from public, anon, authenticated;
            create trigger audit_saved after insert on public.saved for each row execute function public.audit_elsewhere();
            """)
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--plan", ElectricRide.planPath], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.standardOutput.contains("Warning: a probe may have reached what the rollback cannot undo:"), "\(result.all)")
        #expect(result.standardOutput.contains("trigger audit_saved on public.saved calls audit_elsewhere(): writes through dblink"),
                "\(result.all)")
    }

    /// A PostgREST request's session_user is authenticator; the probes' is the run's
    /// own login. The report names what reads it (the custom-claims helper
    /// is_claims_admin() branches on it), so a matrix that depends on it is not taken
    /// for what PostgREST would show.
    @Test func theReportNamesWhatReadsSessionUser() throws {
        let (url, connection) = try electricRide()
        try connection.execute("""
            create function private.is_claims_admin() returns boolean language plpgsql stable as $$
            begin if session_user = 'authenticator' then return false; end if; return true; end $$;
            create policy "claims admins read" on public.saved for select to authenticated using (session_user <> 'authenticator');
            """)
        let result = try PgwardenCLI.run(
            ["test", "--database-url", url, "--plan", ElectricRide.planPath], environment: PgwardenCLI.cleanEnvironment())
        #expect(result.standardOutput.contains("Note: these read session_user, which is authenticator in a PostgREST request"),
                "\(result.all)")
        #expect(result.standardOutput.contains("  ! function private.is_claims_admin()"), "\(result.all)")
        #expect(result.standardOutput.contains("  ! policy \"claims admins read\" on public.saved"), "\(result.all)")
    }

    /// Issue 17: every run report lists the local stand-ins the database uses. pg_net,
    /// which every new Supabase project has, counts once something the project wrote
    /// calls it (a function, a Database Webhook's trigger, a pg_cron job).
    @Test func theReportListsTheStandInsTheDatabaseUses() throws {
        let (url, connection) = try electricRide()
        try connection.execute("create extension if not exists pg_net with schema extensions")
        let line = "stand-ins: pg_net is a pgwarden local stand-in, not the real extension: what reaches it (HTTP calls) is not provable locally"
        func run() throws -> PgwardenCLI.Output {
            let result = try PgwardenCLI.run(
                ["test", "--database-url", url, "--plan", ElectricRide.planPath], environment: PgwardenCLI.cleanEnvironment())
            #expect(result.status == 0, "\(result.all)")
            return result
        }
        #expect(try !run().standardOutput.contains("stand-ins:"))
        // A webhook: a trigger calling supabase_functions.http_request.
        try connection.execute("""
            create trigger saved_webhook after insert on public.saved for each row
              execute function supabase_functions.http_request('https://example.com/hook', 'POST', '{}', '{}', '1000')
            """)
        #expect(try run().standardOutput.contains(line))
        try connection.execute("drop trigger saved_webhook on public.saved")
        // A function of the project's (in its private schema, which no plan exposes) that posts.
        try connection.execute("""
            create function private.notify() returns bigint language sql
              as $$ select net.http_post(url := 'https://example.com', body := '{}'::jsonb) $$;
            """)
        #expect(try run().standardOutput.contains(line))
        // supabase_vault, installed as on a new project, counts once a function of the
        // project's reads the Vault.
        #expect(try !run().standardOutput.contains("supabase_vault"))
        try connection.execute("""
            create function private.provider_key() returns text language sql security definer
              as $$ select decrypted_secret from vault.decrypted_secrets where name = 'provider_key' $$;
            """)
        #expect(try run().standardOutput.contains("(HTTP calls, Vault encryption) is not provable locally"))
    }
}
