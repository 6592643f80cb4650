import Foundation
import Testing
@testable import WardenKit

/// The parts of `pgwarden lint` that need no server: reading policy expressions,
/// deciding what is a danger, and finding the migration line that created an object.
@Suite struct LintRuleTests {
    private func policy(_ command: String, using: String?, check: String?, roles: Bool = true) -> LintPolicyRules.Policy {
        LintPolicyRules.Policy(schema: "public", table: "t", name: "p", command: command, permissive: true,
                               forAPIRoles: roles, roles: "authenticated", using: using, check: check)
    }

    private func rules(_ policies: LintPolicyRules.Policy...) throws -> [LintRule] {
        try LintPolicyRules(policies: policies).findings().map(\.rule)
    }

    @Test func alwaysTrueIsAboutWritesForTheAPIRoles() throws {
        #expect(try rules(policy("w", using: "true", check: nil)) == [.rlsPolicyAlwaysTrue])
        #expect(try rules(policy("a", using: nil, check: "(1 = 1)")) == [.rlsPolicyAlwaysTrue])
        #expect(try rules(policy("*", using: "true", check: nil)) == [.rlsPolicyAlwaysTrue])
        // A missing clause lets nothing through (PostgreSQL hides or refuses every row):
        // no USING, or an insert's missing WITH CHECK, is not "always true".
        #expect(try rules(policy("a", using: nil, check: nil)).isEmpty)
        #expect(try rules(policy("d", using: nil, check: nil)).isEmpty)
        #expect(try rules(policy("*", using: nil, check: "(owner = ( SELECT auth.uid() AS uid))")).isEmpty)
        // A select policy with true is usually on purpose; a policy for other roles is not the API's.
        #expect(try rules(policy("r", using: "true", check: nil)).isEmpty)
        #expect(try rules(policy("w", using: "true", check: nil, roles: false)).isEmpty)
        #expect(try rules(policy("w", using: "(owner = ( SELECT auth.uid() AS uid))", check: nil)).isEmpty)
    }

    @Test func authCallsPerRowAndUserMetadata() throws {
        #expect(try rules(policy("r", using: "(owner = auth.uid())", check: nil)) == [.authRLSInitplan])
        #expect(try rules(policy("r", using: "(owner = ( SELECT auth.uid() AS uid))", check: nil)).isEmpty)
        #expect(try rules(policy("r", using: "(team = ( SELECT ((auth.jwt() -> 'user_metadata'::text) ->> 'team'::text)))", check: nil))
            == [.rlsReferencesUserMetadata])
        #expect(try rules(policy("r", using: "(team = ((current_setting('request.jwt.claims'::text, true))::jsonb -> 'user_metadata'))", check: nil))
            == [.rlsReferencesUserMetadata, .authRLSInitplan])
    }

    /// The advice names the call the policy makes for every row (a policy calling only
    /// auth.jwt() was told to wrap auth.uid()), the first not wrapped already.
    @Test func thePerRowAdviceNamesTheCallMade() throws {
        func detail(_ using: String) throws -> String? {
            try LintPolicyRules(policies: [policy("r", using: using, check: nil)]).findings()
                .first { $0.rule == .authRLSInitplan }?.detail
        }
        #expect(try detail("((auth.jwt() ->> 'role'::text) = 'admin'::text)")?
            .hasSuffix("calls auth.jwt() for every row; wrap it as (select auth.jwt())") == true)
        #expect(try detail("((owner = ( SELECT auth.uid() AS uid)) OR (auth.role() = 'service_role'::text))")?
            .hasSuffix("calls auth.role() for every row; wrap it as (select auth.role())") == true)
        #expect(try detail("(tenant = current_setting('app.tenant'::text))")?
            .hasSuffix("calls current_setting(...) for every row; wrap it as (select current_setting(...))") == true)
        #expect(try detail("(owner = ( SELECT auth.uid() AS uid))") == nil)
        #expect(try detail("((owner = auth.uid()) OR ((auth.jwt() ->> 'role'::text) = 'admin'::text) OR (editor = auth.uid()))")?
            .hasSuffix("calls auth.uid(), auth.jwt() for every row; wrap each as (select auth.uid()), (select auth.jwt())") == true)
    }

    @Test func theSummaryCountsOneFindingAndOneDangerInTheSingular() {
        let view = LintFinding(rule: .securityDefinerView, kind: .view, schema: "public", name: "v", detail: "")
        #expect(LintReportFormats.summary(LintReport(findings: [view], duration: .zero)) == "lint: 1 finding, 1 danger")
        #expect(LintReportFormats.summary(LintReport(findings: [], duration: .zero)) == "lint: 0 findings, 0 dangers")
    }

    @Test func dangerDependsOnProofLevelAndIntent() {
        var finding = LintFinding(rule: .anonSecurityDefinerFunctionExecutable, kind: .function, schema: "public",
                                  name: "f", signature: "public.f()", detail: "")
        #expect(!finding.isDanger)  // WARN, nothing probed
        finding.consequence = LintConsequence(verdict: .proven, evidence: ["anon called public.f(): succeeded, deleted 1 row of public.t"], personas: ["anon"])
        #expect(finding.isDanger && finding.status == "danger")
        finding.intended = true
        #expect(!finding.isDanger && finding.status == "intended")
        let view = LintFinding(rule: .securityDefinerView, kind: .view, schema: "public", name: "v", detail: "")
        #expect(view.isDanger)  // ERROR, nothing probed
        var harmless = view
        harmless.consequence = LintConsequence(verdict: .harmless, evidence: [])
        #expect(!harmless.isDanger && harmless.status == "harmless")
        let slow = LintFinding(rule: .authRLSInitplan, kind: .table, schema: "public", name: "t", detail: "",
                               consequence: LintConsequence(verdict: .proven, evidence: []))
        #expect(!slow.isDanger)
    }

    @Test func locatesTheMigrationLineThatCreatedAnObject() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            -- objects of one migration
            create table if not exists "public"."Trip Log" (id int);
            create or replace function public.wipe(x int) returns void language sql as 'select 1';
            create policy "p" on public.trips for all using (true);
            """.write(to: folder.appendingPathComponent("1_a.sql"), atomically: true, encoding: .utf8)
        let locator = try MigrationObjectLocator(folder: folder)
        let trip = LintFinding(rule: .rlsDisabledInPublic, kind: .table, schema: "public", name: "Trip Log", detail: "")
        #expect(locator.location(of: trip)?.line == 2)
        let wipe = LintFinding(rule: .functionSearchPathMutable, kind: .function, schema: "public", name: "wipe",
                               signature: "public.wipe(integer)", detail: "")
        #expect(locator.location(of: wipe)?.line == 3)
        let policy = LintFinding(rule: .rlsPolicyAlwaysTrue, kind: .table, schema: "public", name: "trips", detail: "",
                                 policies: ["p"])
        #expect(locator.location(of: policy)?.line == 4)
        let missing = LintFinding(rule: .rlsDisabledInPublic, kind: .table, schema: "public", name: "wipe", detail: "")
        #expect(locator.location(of: missing) == nil)
    }

    @Test func locatesWholeStatementsNotLinesAndTheLastThatCreatedIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            create table public.log (id int);
            create function public.make() returns void language plpgsql as $$
            begin
              create table public.made (id int);
            end $$;
            /* create view public.v as select 1; */
            create view
              public.v as select 1;
            """.write(to: folder.appendingPathComponent("1_a.sql"), atomically: true, encoding: .utf8)
        try """
            drop table public.log;
            select 'create table public.log (id int);';
            create table
              "public"."log" (id int);
            """.write(to: folder.appendingPathComponent("2_b.sql"), atomically: true, encoding: .utf8)
        let locator = try MigrationObjectLocator(folder: folder)
        let log = LintFinding(rule: .rlsDisabledInPublic, kind: .table, schema: "public", name: "log", detail: "")
        #expect(locator.location(of: log).map { "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.line)" } == "2_b.sql:3")
        let view = LintFinding(rule: .securityDefinerView, kind: .view, schema: "public", name: "v", detail: "")
        #expect(locator.location(of: view)?.line == 7)
        let made = LintFinding(rule: .rlsDisabledInPublic, kind: .table, schema: "public", name: "made", detail: "")
        #expect(locator.location(of: made) == nil)
        let upper = LintFinding(rule: .rlsDisabledInPublic, kind: .table, schema: "public", name: "LOG", detail: "")
        #expect(locator.location(of: upper) == nil)  // unquoted log is folded to lower case
    }

    /// Overloads share a name: each finding is located at the `create` with as many
    /// input arguments as its signature (`out` arguments are not in a signature); both
    /// pointed at the last `create` of the name.
    @Test func locatesAnOverloadByItsNumberOfArguments() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            create function public.wipe(p_limit int default 10) returns void language sql as 'select 1';
            create function public.wipe(p_limit numeric(10, 2), p_tag text default 'a,b', out done boolean)
              language sql as 'select true';
            create function public.wipe() returns void language sql as 'select 1';
            """.write(to: folder.appendingPathComponent("1_a.sql"), atomically: true, encoding: .utf8)
        let locator = try MigrationObjectLocator(folder: folder)
        func line(_ signature: String) -> Int? {
            locator.location(of: LintFinding(rule: .functionSearchPathMutable, kind: .function, schema: "public", name: "wipe",
                                             signature: signature, detail: ""))?.line
        }
        #expect(line("public.wipe(integer)") == 1)
        #expect(line("public.wipe(numeric, text)") == 2)
        #expect(line("public.wipe()") == 4)
        #expect(MigrationObjectLocator.argumentCount("public.f(character varying, numeric(10,2))") == 2)
    }

    /// Policies made in a DO block (guarded by `if not exists`, or in an `execute`) are
    /// located at their own line, not their table's `create table` (a goals app's
    /// `planner_tasks`, round twenty-nine: line 1 for policies at lines 30 and 44).
    @Test func locatesAPolicyMadeInADoBlock() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            create table public.tasks (id int, owner uuid);
            do $$
            begin
              if not exists (select 1 from pg_policies where policyname = 'tasks read') then
                create policy "tasks read" on public.tasks
                  for select using (true);
              end if;
              execute 'create policy tasks_write on public.tasks for insert with check (true)';
            end $$;
            """.write(to: folder.appendingPathComponent("1_a.sql"), atomically: true, encoding: .utf8)
        let locator = try MigrationObjectLocator(folder: folder)
        func line(_ policy: String) -> Int? {
            locator.location(of: LintFinding(rule: .rlsPolicyAlwaysTrue, kind: .table, schema: "public", name: "tasks",
                                             detail: "", policies: [policy]))?.line
        }
        #expect(line("tasks read") == 5)
        #expect(line("tasks_write") == 8)
    }
}
