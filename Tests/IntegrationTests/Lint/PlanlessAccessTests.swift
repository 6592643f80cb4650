import Foundation
import Testing
import WardenKit
import TestSupport

/// The first answer before there is a plan: `test` and `dev` without an access-plan
/// file show the access as observed, mark the dangers with what the probes showed,
/// say how to start a plan, and exit 0 (1 under --strict when there is a danger).
/// With a plan, `test --strict` fails on a danger the plan does not declare.
@Suite struct PlanlessAccessTests {
    private func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planless-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func testWithoutAPlanShowsTheObservedMatrixAndItsDangers() throws {
        let (admin, _, url) = try LintFindingsTests.database()
        let before = try DatabaseDigest.ofDatabase(admin)
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // No --plan: the project's default path, where there is no plan yet.
        let plan = "access-plan.yml"
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(result.status == 0, "\(result.all)")
        let out = result.standardOutput
        #expect(out.contains("no access plan (\(plan)): what the database allows now"))
        #expect(out.contains("public.notes_open"))
        #expect(out.contains("DANGER public.notes_open · anon: anon (no sign-in) may insert, update, delete"))
        // The advisor's finding goes under anon's function cell, with its probes: one DANGER for one grant.
        #expect(out.contains("""
            DANGER public.remove_note(integer) · anon: anon (no sign-in) may execute this security definer function
              lint: anon_security_definer_function_executable: anon may execute security definer function public.remove_note(integer)
            """), "\(out)")
        #expect(!out.contains("DANGER anon_security_definer_function_executable public.remove_note(integer)"), "\(out)")
        #expect(out.contains("  probe: anon called public.remove_note(1): succeeded, deleted 1 row of public.notes_open"))
        #expect(out.contains("start a plan from this: pgwarden plan draft --output \(plan)"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(plan).path))
        let strict = try PgwardenCLI.run(["test", "--database-url", url, "--strict"], directory: folder.path)
        #expect(strict.status == 1, "\(strict.all)")
        #expect(try DatabaseDigest.ofDatabase(admin) == before)
    }

    @Test func strictTestFailsOnADangerThePlanDoesNotDeclare() throws {
        let (_, _, url) = try LintFindingsTests.database()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("access-plan.yml").path
        let drafted = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", plan])
        #expect(drafted.status == 0, "\(drafted.all)")
        let yaml = try String(contentsOfFile: plan, encoding: .utf8)
        #expect(yaml.contains("# DANGER (anon_security_definer_function_executable) public.remove_note(integer):"))
        #expect(yaml.contains("#   anon called public.remove_note(1): succeeded, deleted 1 row of public.notes_open"))
        let plain = try PgwardenCLI.run(["test", "--database-url", url, "--plan", plan])
        #expect(plain.status == 0, "\(plain.all)")
        // user_metadata in a policy is never declared; what anon may do is, but the draft
        // still marks it DANGER: not intended until the mark is gone (reviewed).
        let strict = try PgwardenCLI.run(["test", "--database-url", url, "--plan", plan, "--strict"])
        #expect(strict.status == 1, "\(strict.all)")
        #expect(strict.standardOutput.contains("DANGER rls_references_user_metadata public.teams"))
        #expect(strict.standardOutput.contains("DANGER anon_security_definer_function_executable public.remove_note(integer)"))
        let reviewed = yaml.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            if line.hasPrefix("# DANGER") { return nil }
            return line.range(of: "  # DANGER").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
        try reviewed.write(toFile: plan, atomically: true, encoding: .utf8)
        let afterReview = try PgwardenCLI.run(["test", "--database-url", url, "--plan", plan, "--strict"])
        #expect(afterReview.standardOutput.contains("INTENDED anon_security_definer_function_executable public.remove_note(integer)"),
                "\(afterReview.all)")
    }

    @Test func strictTestOfElectricRidePassesWithItsDefinerViewIntended() throws {
        let connection = try ElectricRide.database()
        let url = try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: "postgres")
        let result = try PgwardenCLI.run(["test", "--database-url", url, "--plan", ElectricRide.planPath, "--strict"])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("INTENDED security_definer_view public.count_of_vehicles_by_brand"))
        // delete_current_user changes only the caller's own rows (its account, and the
        // sessions and MFA claims the delete cascades into): a WARN, nothing to intend.
        #expect(result.standardOutput.contains("WARN authenticated_security_definer_function_executable public.delete_current_user()"),
                "\(result.all)")
        #expect(result.standardOutput.contains("lint: 2 findings, 0 dangers, 1 intended by the access plan"), "\(result.all)")
        // With a machine format, standard output stays that format; lint's text goes to standard error.
        let json = try PgwardenCLI.run(["test", "--database-url", url, "--plan", ElectricRide.planPath, "--strict", "--format", "json"])
        #expect(json.status == 0, "\(json.all)")
        #expect(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) is [String: Any])
        #expect(json.standardError.contains("INTENDED security_definer_view public.count_of_vehicles_by_brand"))
    }

    @Test func aPlanNamedByFlagMustExist() throws {
        let (admin, _, url) = try LintFindingsTests.database()
        let before = try DatabaseDigest.ofDatabase(admin)
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let typo = folder.appendingPathComponent("acess-plan.yml").path
        let expected = "pgwarden: \(typo): no such file; --plan names a plan that must exist"
        let tested = try PgwardenCLI.run(["test", "--database-url", url, "--plan", typo])
        #expect(tested.status == 65, "\(tested.all)")
        #expect(tested.standardError.hasPrefix(expected), "\(tested.standardError)")
        #expect(tested.standardOutput.isEmpty, "\(tested.standardOutput)")
        // dev refuses it before a server starts (its inputs are checked while the
        // server's files are made, and what was made is gone).
        let servers = folder.appendingPathComponent("servers")
        try FileManager.default.createDirectory(at: servers, withIntermediateDirectories: false)
        let dev = try PgwardenCLI.run(
            ["dev", "--migrations", LintFindingsTests.folder.path, "--plan", typo],
            environment: PgwardenCLI.cleanEnvironment(["PGWARDEN_TMPDIR": servers.path]), directory: folder.path)
        #expect(dev.status == 65, "\(dev.all)")
        #expect(dev.standardError.hasPrefix(expected), "\(dev.standardError)")
        #expect(!dev.standardOutput.contains("server:"), "\(dev.standardOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: servers.path).isEmpty)
        // So does a plan that is there but wrong, found on the thread that checks the inputs.
        let broken = folder.appendingPathComponent("broken-plan.yml")
        try Data("relations: [\n".utf8).write(to: broken)
        let refused = try PgwardenCLI.run(
            ["dev", "--migrations", LintFindingsTests.folder.path, "--plan", broken.path],
            environment: PgwardenCLI.cleanEnvironment(["PGWARDEN_TMPDIR": servers.path]), directory: folder.path)
        #expect(refused.status == 65, "\(refused.all)")
        #expect(refused.standardError.contains("broken-plan.yml:2: invalid YAML"), "\(refused.standardError)")
        #expect(!refused.standardOutput.contains("server:"), "\(refused.standardOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: servers.path).isEmpty)
        #expect(try DatabaseDigest.ofDatabase(admin) == before)
    }

    @Test func devWithoutAPlanIsNotAnErrorAndShowsTheDangers() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PgwardenCLI.run(
            ["dev", "--migrations", LintFindingsTests.folder.path], environment: PgwardenCLI.cleanEnvironment(),
            directory: folder.path)
        #expect(result.status == 0, "\(result.all)")
        #expect(!result.all.contains("cannot read the plan file"))
        #expect(result.standardOutput.contains("no access plan (access-plan.yml)"))
        #expect(result.standardOutput.contains("DANGER rls_policy_always_true public.posts"))
        #expect(result.standardOutput.contains("  probe: ava inserted a row of public.posts owned by ben"))
        #expect(result.standardOutput.contains("start a plan from this: pgwarden plan draft --output access-plan.yml"))
    }

    /// A read policy that reads `auth.users` (`email = (select email from auth.users
    /// where id = auth.uid())`): on Supabase no API role may read it, so every read of
    /// the invitations fails, the inviter's own included. The matrix said `x` (refused)
    /// and "no dangers found", as if the policy worked; a WARN line now names the table.
    @Test func aRefusalFromATableAPolicyReadsIsNamed() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("authusersread").project)
        try connection.execute(unsafeScript: """
            create table public.invitations (id uuid primary key default gen_random_uuid(),
              invited_by uuid not null default auth.uid() references auth.users (id), email text not null);
            alter table public.invitations enable row level security;
            create policy invite on public.invitations for insert to authenticated with check (invited_by = auth.uid());
            create policy read_own on public.invitations for select to authenticated
              using (invited_by = auth.uid() or email = (select u.email from auth.users u where u.id = auth.uid()));
            create table public.secrets (id bigint primary key, body text);
            revoke all on public.secrets from anon;
            create view public.secrets_view with (security_invoker = true) as select id from public.secrets;
            grant select on public.secrets_view to anon;
            """)
        let url = try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: "postgres")
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(result.status == 0, "\(result.all)")
        let warn = result.standardOutput.split(separator: "\n").first { $0.hasPrefix("WARN public.invitations · select") }
        #expect(warn?.contains("as ava, ben: refused by \"permission denied for table users\"") == true, "\(result.all)")
        #expect(warn?.contains("auth.users is not readable by anon or authenticated") == true, "\(result.all)")
        // anon refused on a view over a table its role may not read: the view refusing, no WARN.
        #expect(!result.standardOutput.contains("WARN public.secrets_view"), "\(result.all)")
    }
}
