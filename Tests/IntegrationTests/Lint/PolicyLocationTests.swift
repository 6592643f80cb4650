import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// Each policy finding points at its own policy's statement: the first line of the last
/// `create policy` (or `alter policy`) naming it on its table, not the table's first
/// policy nor its `create table` (found on real projects: three policies at lines 79,
/// 86 and 93 all reported at 72; policies written over several lines reported at the
/// table).
@Suite struct PolicyLocationTests {
    private static let migrations = [
        "20240101000000_items.sql": """
            create table public.items (id bigint generated always as identity primary key,
              owner uuid default auth.uid(), name text);
            alter table public.items enable row level security;
            create policy "read" on public.items for select to authenticated using (true);
            -- create policy "Anyone Deletes" on public.items (a comment, not a statement)
            create policy "anyone edits" on public.items for update to authenticated using (true) with check (true);
            create policy "Anyone Deletes"
              on public.items
              for delete to authenticated
              using (true);
            CREATE POLICY Anyone_Inserts ON Public.Items FOR INSERT TO authenticated WITH CHECK (true);
            create policy "old name" on public.items for all to authenticated using (auth.uid() = owner);
            create table public.other (id int primary key);
            alter table public.other enable row level security;
            create policy "Anyone Deletes" on public.other for delete to authenticated using (true);
            """,
        "20240102000000_later.sql": """
            -- re-create one, rename another
            drop policy "anyone edits" on public.items;
            create policy "anyone edits" on public.items
              for update to authenticated using (true) with check (true);
            alter policy "old name" on public.items
              rename to "owner writes";
            """,
        // Policies made by a loop over table names (`execute format(... public.%I ...)`):
        // they were located at their table's `create table`, in another file.
        "20240103000000_loop.sql": """
            create table public.notes (id bigint primary key, user_id uuid);
            alter table public.notes enable row level security;
            do $$
            declare t text;
            begin
              foreach t in array array['notes'] loop
                execute format('create policy own_select on public.%I for select using (auth.uid() = user_id)', t);
              end loop;
            end $$;
            """,
    ]

    @Test func eachPolicyFindingIsAtItsOwnPolicysStatement() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("policy-lines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in Self.migrations {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let (_, projectSettings) = try TestCluster.newTwinDatabase("policylines")
        _ = try Migrator.open(folder: folder.path, settings: projectSettings).up()
        let report = try Linter(connection: try Connection(projectSettings)).run(migrations: folder, probing: false)
        func place(_ rule: LintRule, _ table: String, _ policy: String) throws -> String {
            let finding = try #require(report.findings.first { $0.rule == rule && $0.subject == table && $0.policies == [policy] },
                                       "\(rule.rawValue) \(policy)")
            let location = try #require(finding.location, "\(rule.rawValue) \(policy) has no location")
            return "\(URL(fileURLWithPath: location.file).lastPathComponent):\(location.line)"
        }
        // Several policies on one table, one written over several lines, one in capitals.
        #expect(try place(.rlsPolicyAlwaysTrue, "public.items", "Anyone Deletes") == "20240101000000_items.sql:7")
        #expect(try place(.rlsPolicyAlwaysTrue, "public.items", "anyone_inserts") == "20240101000000_items.sql:11")
        #expect(try place(.rlsPolicyAlwaysTrue, "public.other", "Anyone Deletes") == "20240101000000_items.sql:15")
        // Dropped and re-created by a later migration; renamed by a later migration.
        #expect(try place(.rlsPolicyAlwaysTrue, "public.items", "anyone edits") == "20240102000000_later.sql:3")
        #expect(try place(.authRLSInitplan, "public.items", "owner writes") == "20240102000000_later.sql:5")
        #expect(try place(.authRLSInitplan, "public.notes", "own_select") == "20240103000000_loop.sql:7")
        // Several policies: the earliest of them ("read", then "owner writes").
        let several = try #require(report.findings.first {
            $0.rule == .multiplePermissivePolicies && $0.detail.contains("authenticated on select")
        })
        #expect(several.policies == ["owner writes", "read"])
        #expect(several.location?.line == 4 && several.location?.file.hasSuffix("_items.sql") == true)
    }
}
