import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// `pgwarden lint` on a fixture with every access finding of Supabase's advisor:
/// each finding is found, its consequence proven (or shown harmless) as a persona,
/// and nothing of the run stays.
@Suite struct LintFindingsTests {
    static let folder = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/LintFindings/migrations")

    /// The fixture on a fresh twin, plus a foreign table (creating one needs a superuser).
    static func database() throws -> (admin: Connection, project: Connection, url: String) {
        let (adminSettings, projectSettings) = try TestCluster.newTwinDatabase("lint")
        _ = try Migrator.open(folder: folder.path, settings: projectSettings).up()
        let admin = try Connection(adminSettings)
        try admin.execute(
            """
            create extension file_fdw;
            create server lines foreign data wrapper file_fdw;
            create foreign table public.remote_lines (line text) server lines options (program 'printf "a\\nb\\n"');
            grant select on public.remote_lines to anon, authenticated;
            """)
        let url = try TestCluster.cluster.url(database: projectSettings.parameters["dbname"] ?? "", user: "postgres")
        return (admin, try Connection(projectSettings), url)
    }

    private func finding(_ report: LintReport, _ rule: LintRule, _ subject: String) throws -> LintFinding {
        try #require(report.findings.first { $0.rule == rule && $0.subject == subject }, "\(rule.rawValue) \(subject)")
    }

    @Test func findsEveryRuleAndProvesItsConsequenceLeavingNothing() throws {
        let (admin, project, _) = try Self.database()
        let before = try DatabaseDigest.ofDatabase(admin)
        let report = try Linter(connection: project).run(migrations: Self.folder)
        #expect(try DatabaseDigest.ofDatabase(admin) == before)
        // Every rule but the access token hook's, which needs a hook configured (HookUserMetadataTests).
        #expect(Set(report.findings.map(\.rule)) == Set(LintRule.allCases).subtracting([.accessTokenHookReadsUserMetadata]))

        let open = try finding(report, .rlsDisabledInPublic, "public.notes_open")
        #expect(open.isDanger)
        #expect(open.consequence?.evidence.first == "anon reads 1 row of public.notes_open; may insert, update, delete every row (no row-level security applies)")
        #expect(open.location?.line == 6)
        #expect(try finding(report, .policyExistsRLSDisabled, "public.drafts").isDanger)
        let vault = try finding(report, .rlsEnabledNoPolicy, "public.vault_items")
        #expect(!vault.isDanger && vault.status == "info")

        let view = try finding(report, .securityDefinerView, "public.all_posts")
        #expect(view.consequence?.verdict == .proven)
        #expect(view.consequence?.evidence.first == "anon reads 2 rows of public.all_posts; directly, of public.posts: 0 rows")
        #expect(view.isDanger)
        let emails = try finding(report, .authUsersExposed, "public.user_emails")
        #expect(emails.consequence?.evidence.first?.hasPrefix("anon reads 2 rows of public.user_emails") == true)
        #expect(try finding(report, .materializedViewInAPI, "public.post_totals").consequence?.evidence.first
            == "anon reads 1 row of public.post_totals")
        #expect(try finding(report, .foreignTableInAPI, "public.remote_lines").consequence?.evidence.first
            == "anon reads 2 rows of public.remote_lines")

        let remove = try finding(report, .anonSecurityDefinerFunctionExecutable, "public.remove_note(integer)")
        #expect(remove.consequence?.evidence == ["anon called public.remove_note(1): succeeded, deleted 1 row of public.notes_open"])
        #expect(remove.isDanger)
        #expect(remove.location?.line == 47)
        let signedIn = try finding(report, .authenticatedSecurityDefinerFunctionExecutable, "public.remove_note(integer)")
        #expect(signedIn.consequence?.evidence == ["ava called public.remove_note(1): succeeded, deleted 1 row of public.notes_open"])
        let whoami = try finding(report, .anonSecurityDefinerFunctionExecutable, "public.whoami()")
        #expect(whoami.consequence?.verdict == .harmless)
        #expect(whoami.consequence?.evidence == ["anon called public.whoami(): succeeded, changed nothing"])
        #expect(!whoami.isDanger)
        let emails2 = try finding(report, .anonSecurityDefinerFunctionExecutable, "public.list_emails()")
        #expect(emails2.consequence?.evidence == ["anon called public.list_emails(): succeeded, returned 2 rows, changed nothing"])
        #expect(emails2.isDanger)
        let signedInEmails = try finding(report, .authenticatedSecurityDefinerFunctionExecutable, "public.list_emails()")
        #expect(signedInEmails.consequence?.evidence == ["ava called public.list_emails(): succeeded, returned 2 rows, changed nothing"])
        #expect(!signedInEmails.isDanger)
        let clear = try finding(report, .apiFunctionTruncates, "public.clear_drafts()")
        #expect(clear.consequence?.evidence == ["anon called public.clear_drafts(): succeeded, truncated public.drafts"])
        #expect(clear.isDanger)
        #expect(report.findings.contains { $0.rule == .functionSearchPathMutable && $0.subject == "public.remove_note(integer)" })
        #expect(!report.findings.contains { $0.rule == .functionSearchPathMutable && $0.subject == "public.whoami()" })

        let always = try finding(report, .rlsPolicyAlwaysTrue, "public.posts")
        #expect(always.consequence?.evidence == [
            "ava inserted a row of public.posts owned by ben",
            "ava updated 1 row of public.posts owned by another user",
            "ava deleted 1 row of public.posts owned by another user",
            "ava gave 1 own row of public.posts to ben (author set to ben's id)",
        ])
        #expect(always.isDanger)
        let metadata = try finding(report, .rlsReferencesUserMetadata, "public.teams")
        #expect(metadata.isDanger)
        #expect(metadata.consequence?.evidence == [
            "ava reads 0 rows of public.teams with her own user_metadata",
            #"ava, after setting her own user_metadata to {"team":"red"}, reads 1 row of public.teams"#,
        ])
        #expect(try !finding(report, .authRLSInitplan, "public.posts").isDanger)
        // (select auth.jwt() -> ...) runs once, as an initplan: not flagged.
        #expect(!report.findings.contains { $0.rule == .authRLSInitplan && $0.subject == "public.teams" })
        #expect(try finding(report, .multiplePermissivePolicies, "public.posts").location?.line == 26)
        #expect(try !finding(report, .multiplePermissivePolicies, "public.posts").isDanger)
        #expect(try finding(report, .extensionInPublic, "hstore").rule.level == .warn)
    }

    @Test func planDeclaringAConsequenceMakesItIntended() throws {
        let connection = try ElectricRide.database()
        let plan = try AccessPlanParser.load(path: ElectricRide.planPath)
        let report = try Linter(connection: connection).run(plan: plan, migrations: ElectricRide.migrations)
        let view = try finding(report, .securityDefinerView, "public.count_of_vehicles_by_brand")
        #expect(view.consequence?.verdict == .proven)
        #expect(view.intended && !view.isDanger && view.status == "intended")
        #expect(view.location?.file.hasSuffix(".sql") == true)
        let unjudged = try Linter(connection: connection).run(migrations: ElectricRide.migrations)
        #expect(try finding(unjudged, .securityDefinerView, "public.count_of_vehicles_by_brand").isDanger)
    }

    @Test func commandReportsDangersInEveryFormatAndExitsOne() throws {
        let (_, _, url) = try Self.database()
        // A folder without access-plan.yml or migrations/ (the package root has Electric Ride's).
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let summary = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID().uuidString).md")
        defer { try? FileManager.default.removeItem(at: summary) }
        let github = try PgwardenCLI.run(
            ["lint", "--database-url", url, "--migrations", Self.folder.path, "--format", "github"],
            environment: PgwardenCLI.cleanEnvironment(["GITHUB_STEP_SUMMARY": summary.path]), directory: empty.path)
        #expect(github.status == 1, "\(github.all)")
        #expect(github.standardOutput.contains("DANGER anon_security_definer_function_executable public.remove_note(integer)"))
        #expect(github.standardOutput.contains("probe: anon called public.remove_note(1): succeeded, deleted 1 row of public.notes_open"))
        #expect(github.standardOutput.contains(
            "::error file=\(Self.folder.path)/20260201000000_findings.sql,line=47,title=anon_security_definer_function_executable%3A public.remove_note(integer)::"))
        #expect(try String(contentsOf: summary, encoding: .utf8).contains("| danger | [`anon_security_definer_function_executable`]"))
        let json = try PgwardenCLI.run(["lint", "--database-url", url, "--format", "json"], directory: empty.path)
        #expect(json.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect((document?["passed"] as? Bool) == false)
        #expect(((document?["findings"] as? [Any])?.count ?? 0) > 15)
        let catalogOnly = try PgwardenCLI.run(["lint", "--database-url", url, "--no-probes"], directory: empty.path)
        #expect(catalogOnly.status == 1, "\(catalogOnly.all)")
        #expect(catalogOnly.standardOutput.contains("DANGER security_definer_view public.all_posts"))
        #expect(!catalogOnly.standardOutput.contains("probe:"))
        // Unprobed WARN findings are not dangers.
        #expect(catalogOnly.standardOutput.contains("WARN anon_security_definer_function_executable public.remove_note(integer)"))
        let junit = try PgwardenCLI.run(["lint", "--database-url", url, "--format", "junit"], directory: empty.path)
        #expect(junit.standardOutput.contains(#"<testcase classname="security_definer_view" name="public.all_posts">"#))
        let markdown = try PgwardenCLI.run(["lint", "--database-url", url, "--format", "markdown"], directory: empty.path)
        #expect(markdown.standardOutput.contains("| danger | [`rls_policy_always_true`]"))
    }

    @Test func badPlanFileIsBadInputAndChangesNothing() throws {
        let (admin, _, url) = try Self.database()
        let before = try DatabaseDigest.ofDatabase(admin)
        let plan = FileManager.default.temporaryDirectory.appendingPathComponent("bad-plan-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: plan) }
        try "schemas: [public]\npersonas:\n  anon: { role: nobody_here }\n".write(to: plan, atomically: true, encoding: .utf8)
        let result = try PgwardenCLI.run(["lint", "--database-url", url, "--plan", plan.path])
        #expect(result.status == 65, "\(result.all)")
        #expect(result.standardError.contains(plan.path))
        #expect(try DatabaseDigest.ofDatabase(admin) == before)
    }

    @Test func insideACallersTransactionLintKeepsTheCallersWork() throws {
        let (_, project, _) = try Self.database()
        try project.execute("begin")
        try project.execute("insert into public.notes_open values (2, 'mine')")
        let report = try Linter(connection: project).run()
        #expect(report.findings.contains { $0.rule == .rlsDisabledInPublic && $0.subject == "public.notes_open" })
        // The caller's transaction is still open and still holds its row.
        #expect(try project.query("select count(*)::text from public.notes_open where id = 2").scalar == "1")
        try project.execute("rollback")
        #expect(try project.query("select count(*)::text from public.notes_open where id = 2").scalar == "0")
    }

    @Test func aPlanNamingParametersStillDeclaresTheFunction() throws {
        let (_, project, _) = try Self.database()
        var plan = try PlanDrafter(connection: project).draft().plan
        let index = try #require(plan.functions.firstIndex { $0.signature == "public.remove_note(integer)" })
        plan.functions[index].signature = "public.remove_note(note_id integer)"
        let report = try Linter(connection: project).run(plan: plan)
        #expect(try finding(report, .anonSecurityDefinerFunctionExecutable, "public.remove_note(integer)").intended)
    }
}
