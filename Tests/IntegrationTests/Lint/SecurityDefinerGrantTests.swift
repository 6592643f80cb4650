import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A security definer function's findings say where anon's EXECUTE comes from (PUBLIC's
/// default, a direct grant) and point at the migration that gave the function its
/// current name or schema (found on hivecom/hivecom.net: EXECUTE revoked from anon and
/// authenticated but not from PUBLIC, and a function renamed by a later migration).
@Suite struct SecurityDefinerGrantTests {
    private static let migrations = [
        "20240101000000_points.sql": """
            create function public.award_points() returns int language sql security definer
              set search_path = '' as $$ select 1 $$;
            create function public.open_points() returns int language sql security definer
              set search_path = '' as $$ select 2 $$;
            create schema api;
            grant usage on schema api to anon, authenticated;
            create function public.moved_points() returns int language sql security definer
              set search_path = '' as $$ select 3 $$;
            """,
        "20240102000000_rename.sql": """
            -- cron calls it
            alter function public.award_points()
              rename to cron_award_points;
            revoke execute on function public.cron_award_points() from anon, authenticated;
            alter function public.moved_points() set schema api;
            """,
    ]

    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("secdef-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in Self.migrations {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func theFindingNamesWhereExecuteComesFromAndTheRenamingMigration() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, projectSettings) = try TestCluster.newTwinDatabase("secdef")
        _ = try Migrator.open(folder: folder.path, settings: projectSettings).up()
        let report = try Linter(connection: try Connection(projectSettings), schemas: ["public", "api"])
            .run(migrations: folder)
        func finding(_ rule: LintRule, _ subject: String) throws -> LintFinding {
            try #require(report.findings.first { $0.rule == rule && $0.subject == subject }, "\(rule.rawValue) \(subject)")
        }
        let renamed = try finding(.anonSecurityDefinerFunctionExecutable, "public.cron_award_points()")
        #expect(renamed.detail == "anon may execute security definer function public.cron_award_points(), which runs with "
            + "its owner's rights, through PUBLIC's EXECUTE privilege (PostgreSQL grants it on every new function by "
            + "default): revoke execute on function public.cron_award_points() from public")
        #expect(renamed.location?.file.hasSuffix("20240102000000_rename.sql") == true)
        #expect(renamed.location?.line == 2)
        let signedIn = try finding(.authenticatedSecurityDefinerFunctionExecutable, "public.cron_award_points()")
        #expect(signedIn.detail.hasSuffix("through PUBLIC's EXECUTE privilege (PostgreSQL grants it on every new function "
            + "by default): revoke execute on function public.cron_award_points() from public"))
        // On the twin, as on Supabase, schema public's default privileges grant anon EXECUTE too.
        let open = try finding(.anonSecurityDefinerFunctionExecutable, "public.open_points()")
        #expect(open.detail.hasSuffix(", granted to anon directly and through PUBLIC's EXECUTE privilege (PostgreSQL "
            + "grants it on every new function by default): revoke execute on function public.open_points() from anon, public"),
                "\(open.detail)")
        #expect(open.location?.line == 3 && open.location?.file.hasSuffix("_points.sql") == true)
        let moved = try finding(.anonSecurityDefinerFunctionExecutable, "api.moved_points()")
        #expect(moved.location?.file.hasSuffix("20240102000000_rename.sql") == true)
        #expect(moved.location?.line == 5)
    }

    @Test func lintPrintsTheRenamingMigrationsLine() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, projectSettings) = try TestCluster.newTwinDatabase("secdefcli")
        _ = try Migrator.open(folder: folder.path, settings: projectSettings).up()
        let url = try TestCluster.cluster.url(database: projectSettings.parameters["dbname"] ?? "", user: "postgres")
        let result = try PgwardenCLI.run(["lint", "--database-url", url, "--migrations", folder.path], directory: folder.path)
        // The functions return constants, reading no table: harmless calls (lint exits 0).
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains(
            "HARMLESS anon_security_definer_function_executable public.cron_award_points() ("
                + folder.path + "/20240102000000_rename.sql:2)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("revoke execute on function public.cron_award_points() from public"))
    }

    /// A definer helper that policies call runs as the user: revoking its EXECUTE, as the
    /// advice said, made every read of the tables behind those policies fail (42501). The
    /// advice moves it out of the exposed schemas instead, and that advice, followed,
    /// keeps the reads working and the finding gone.
    @Test func aHelperThatPoliciesCallIsMovedNotRevoked() throws {
        let (_, projectSettings) = try TestCluster.newTwinDatabase("secdefpolicy")
        let connection = try Connection(projectSettings)
        try connection.execute(unsafeScript: """
            create table public.members (group_id bigint not null, user_id uuid not null references auth.users);
            create table public.notes (id bigint generated always as identity primary key, group_id bigint not null);
            create function public.is_member(g bigint) returns boolean language sql stable security definer
              set search_path = '' as $$ select exists (select 1 from public.members where group_id = g and user_id = auth.uid()) $$;
            alter table public.members enable row level security;
            alter table public.notes enable row level security;
            create policy m on public.members for select to authenticated using (public.is_member(group_id));
            create policy n on public.notes for select to authenticated using (public.is_member(group_id));
            grant select on public.members, public.notes to authenticated;
            """)
        let report = try Linter(connection: connection, schemas: ["public"]).run(migrations: nil)
        let finding = try #require(report.findings.first {
            $0.rule == .authenticatedSecurityDefinerFunctionExecutable && $0.subject == "public.is_member(bigint)"
        })
        #expect(finding.detail.hasSuffix("; the policies of public.members, public.notes call it as the user, so revoking "
            + "execute would make them fail (42501): move it to a schema the Data API does not expose (policies keep "
            + "calling it): create schema if not exists private; alter function public.is_member(bigint) set schema private"),
                "\(finding.detail)")
        #expect(!finding.detail.contains("revoke execute on function"), "\(finding.detail)")
        try connection.execute(unsafeScript: "create schema if not exists private; alter function public.is_member(bigint) set schema private;")
        let after = try Linter(connection: connection, schemas: ["public"]).run(migrations: nil)
        #expect(!after.findings.contains { $0.rule == .authenticatedSecurityDefinerFunctionExecutable }, "\(after.findings)")
        try connection.execute(unsafeScript: """
            begin;
            set local role authenticated;
            select set_config('request.jwt.claims', '{"sub":"00000000-0000-0000-0000-000000000001","role":"authenticated"}', true);
            select count(*) from public.notes;
            rollback;
            """)
    }
}
