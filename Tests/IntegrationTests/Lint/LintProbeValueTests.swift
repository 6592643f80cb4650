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

    /// An insert policy that lets every row through, on a table whose row needs a
    /// parent that does not exist yet: the probe's insert is refused by the NOT NULL
    /// constraint (23502), not by a privilege or a policy, so the policy itself was
    /// never tried. That is "not probed", never "harmless" (relayshanghai/relay-supa-club).
    @Test func anAlwaysTrueInsertRefusedByAConstraintIsNotProbedNotHarmless() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-constraint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            create table public.companies (id uuid primary key default gen_random_uuid(), name text);
            alter table public.companies enable row level security;
            create table public.campaigns (
              id uuid primary key default gen_random_uuid(),
              company_id uuid not null references public.companies (id),
              name text
            );
            alter table public.campaigns enable row level security;
            create policy "anyone signed in inserts" on public.campaigns for insert to authenticated with check (true);

            """.write(to: folder.appendingPathComponent("20240101000000_campaigns.sql"), atomically: true, encoding: .utf8)
        let connection = try ElectricRide.database(migrations: folder, seeded: false)
        let report = try Linter(connection: connection).run(migrations: folder)
        let insert = try #require(report.findings.first { $0.rule.rawValue == "rls_policy_always_true" && $0.subject == "public.campaigns" })
        let evidence = insert.consequence?.evidence ?? []
        #expect(insert.consequence?.verdict == .notProbed, "\(evidence)")
        #expect(insert.status != "harmless", "\(evidence)")
        #expect(evidence.contains { $0.contains("refused (23502") }, "\(evidence)")
        #expect(evidence.contains { $0.contains("not by a privilege or a policy") }, "\(evidence)")
    }
}
