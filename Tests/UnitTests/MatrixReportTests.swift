import Testing
@testable import WardenKit

/// The terminal matrix when there is nothing to show: a sentence, not an empty header.
@Suite struct MatrixReportTests {
    @Test func aPlanWithNothingExposedSaysSoInsteadOfAnEmptyMatrix() {
        let report = AccessPlanReport(
            planSource: "access-plan.yml", personas: [Persona(name: "anon", role: "anon", user: nil, line: 1)], relations: [], functions: [],
            access: [:], execute: [:], results: [], duration: .milliseconds(3))
        let text = MatrixReport(report).render()
        #expect(text.hasPrefix("nothing to probe: no table, view or function in the plan's schemas\n"), "\(text)")
        #expect(!text.contains("relation "), "\(text)")
        #expect(!text.contains("S I U D"), "\(text)")
    }

    /// Without a plan, a drafted check is kept as it came out, so its ✓ said nothing (a
    /// ✓ beside the DANGER of the same write): the line says what the write did.
    @Test func anObservedCheckSaysWhatTheWriteDid() {
        #expect(MatrixReport.observedCheck("as expected (UPDATE 1)") == "went through (1 row)")
        #expect(MatrixReport.observedCheck("as expected (INSERT 0 1)") == "went through (1 row)")
        #expect(MatrixReport.observedCheck("SQLSTATE 42501") == "refused (42501)")
        #expect(MatrixReport.observedCheck("as expected (UPDATE 0)") == "refused (no row written)")
        // A check its verify decides ("gets role 'admin'" beside its DANGER read "as expected (1 rows)").
        #expect(MatrixReport.observedCheck("as expected (verify held)") == "holds (the admin's verify query says so)")
        #expect(MatrixReport.observedCheck("as expected (UPDATE 1, verify held)") == "went through (1 row)")
        #expect(MatrixReport.observedCheck("as expected (UPDATE 0, verify held)") == "refused (no row written)")
    }

    /// The relations' column is as wide as the relations' names, not the longest function
    /// signature (260 characters on a Makerkit project).
    @Test func eachTableIsAsWideAsItsOwnNames() {
        let long = "public.create_team_account(account_name text, account_slug text, owner_user_id uuid)"
        let report = AccessPlanReport(
            planSource: "access-plan.yml", personas: [Persona(name: "anon", role: "anon", user: nil, line: 1)],
            relations: ["public.notes"], functions: [long], access: [:], execute: [:], results: [], duration: .milliseconds(3))
        let lines = MatrixReport(report).render().split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("relation      anon") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("public.notes  ") && $0.count < 40 }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix(long + "  ") }, "\(lines)")
    }

    /// A draft failing its own run on a check said "the cells marked NOTE could not be
    /// stated", where the plan had no NOTE: the checks are named.
    @Test func aDraftsOwnRunFailuresNameTheChecks() {
        func result(_ kind: ProbeResult.SubjectKind, _ subject: String, passed: Bool) -> ProbeResult {
            ProbeResult(subjectKind: kind, subject: subject, persona: "ava", operation: nil, probe: "check",
                        expected: "1 rows", observed: "failed", passed: passed)
        }
        func report(_ results: [ProbeResult]) -> AccessPlanReport {
            AccessPlanReport(planSource: "draft", personas: [], relations: [], functions: [], access: [:], execute: [:],
                             results: results, duration: .milliseconds(1))
        }
        #expect(PlanDraft.ownRunFailures(of: report([result(.check, "ava sets x", passed: false), result(.relation, "t", passed: true)]))
            == "pgwarden test fails 1 of 2 probes with it: 1 check came out otherwise than when drafted ('ava sets x')")
        #expect(PlanDraft.ownRunFailures(of: report([result(.relation, "t", passed: false), result(.check, "c", passed: false)]))
            == "pgwarden test fails 2 of 2 probes with it: the cells marked NOTE could not be stated; "
                + "1 check came out otherwise than when drafted ('c')")
    }
}
