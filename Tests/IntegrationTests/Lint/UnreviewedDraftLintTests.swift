import Foundation
import Testing
import WardenKit
import TestSupport

/// `plan draft` writes what the database allows, and marks the dangers it found `#
/// DANGER`; `lint` counted everything a plan declares as intended, so right after a
/// draft it went quiet on every danger the draft had just found. A cell or a header
/// line the plan still marks `# DANGER` is not intended until the mark is gone.
@Suite struct UnreviewedDraftLintTests {
    @Test func aDangerTheDraftMarkedIsNotIntendedUntilReviewed() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("unreviewed").project)
        try connection.execute(unsafeScript: """
            create table public.posts (id int primary key, body text not null);
            alter table public.posts enable row level security;
            insert into public.posts values (1, 'x');
            create view public.all_posts as select * from public.posts;
            grant select on public.all_posts to anon;
            """ + LintProbeValueTests.vaultKeyFunction)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.yaml.contains("# DANGER (authenticated_security_definer_function_executable) public.get_service_key():"),
                "\(draft.yaml)")
        func lint(_ yaml: String) throws -> LintReport {
            try Linter(connection: connection).run(plan: AccessPlanParser(file: "draft.yml").parse(yaml))
        }
        let unreviewed = try lint(draft.yaml)
        let view = try #require(unreviewed.findings.first { $0.rule == .securityDefinerView && $0.subject == "public.all_posts" })
        #expect(view.isDanger && !view.intended, "\(draft.yaml)")
        let key = try #require(unreviewed.findings.first { $0.rule == .authenticatedSecurityDefinerFunctionExecutable })
        #expect(key.isDanger && !key.intended, "\(draft.yaml)")

        // Reviewed: the marks are gone, and what the plan declares is intended.
        let reviewed = draft.yaml.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            if line.hasPrefix("# DANGER") { return nil }
            return line.range(of: "  # DANGER").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
        let intended = try lint(reviewed)
        #expect(intended.findings.first { $0.rule == .securityDefinerView }?.intended == true, "\(reviewed)")
        #expect(intended.findings.first { $0.rule == .authenticatedSecurityDefinerFunctionExecutable }?.intended == true, "\(reviewed)")
    }
}
