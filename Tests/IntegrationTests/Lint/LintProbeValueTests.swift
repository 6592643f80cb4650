import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// What lint's probes count as a consequence: a security definer helper that answers
/// anon `false` hands it no data (one call, not the same call twice), while an update
/// policy that lets every row through is proven even when the table's first column is
/// a GENERATED ALWAYS identity (setting it is refused, 428C9, which hid the policy).
@Suite struct LintProbeValueTests {
    static let migrations = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/HelperFunctions/migrations")

    @Test func aHelperThatAnswersFalseIsHarmlessAndAnAlwaysTrueUpdateIsProven() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let report = try Linter(connection: connection).run(migrations: Self.migrations)
        let helper = try #require(report.findings.first {
            $0.rule.rawValue == "anon_security_definer_function_executable" && $0.subject == "public.is_course_owner(uuid)"
        })
        #expect(!helper.isDanger, "\(helper.consequence?.evidence ?? [])")
        #expect(helper.consequence?.evidence == ["anon called public.is_course_owner(null): succeeded, returned false or null, changed nothing"])
        let update = try #require(report.findings.first { $0.rule.rawValue == "rls_policy_always_true" && $0.subject == "public.items" })
        #expect(update.isDanger, "\(update.consequence?.evidence ?? [])")
        #expect(update.consequence?.evidence.contains { $0.contains("updated 2 rows of public.items") } == true)
    }

    /// The plan-less report keeps the draft's DANGER on the helper (Supabase's advisor
    /// flags it too) and shows under it what anon's call did.
    @Test func thePlanlessReportShowsTheCallUnderTheCell() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let report = ObservedAccessReport(try PlanDrafter(connection: connection).draft(), planFile: "plan.yml")
        let lines = report.dangerLines
        let index = try #require(lines.firstIndex { $0.hasPrefix("DANGER public.is_course_owner(uuid) · anon:") }, "\(lines)")
        #expect(lines[index + 1] == "  probe: anon called public.is_course_owner(null): succeeded, returned false or null, changed nothing")
    }
}
