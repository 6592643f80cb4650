import Foundation
import Testing
import WardenKit
import TestSupport

/// A jsonb column whose check constrains a function of it (`jsonb_typeof(value) in
/// ('object', 'array')`, as GrainMuse/frontend's `site_content` and
/// LuizJarduli/eco-wallet's `scratch_card_campaigns` do) gets a JSON value in the insert
/// probes, not the function's literal: every persona's insert was an ERROR line
/// (22P02, invalid input syntax for type json) and the cell went unobserved.
@Suite struct DraftJSONCheckTests {
    static let schema = """
        create table public.settings (
          id uuid primary key default gen_random_uuid(),
          user_id uuid not null references auth.users default auth.uid(),
          value jsonb not null check (jsonb_typeof(value) in ('object', 'array')),
          shape jsonb not null check (jsonb_typeof(shape) = 'object'),
          kind text not null check (kind in ('theme', 'layout'))
        );
        alter table public.settings enable row level security;
        create policy "own rows" on public.settings for all to authenticated
          using (auth.uid() = user_id) with check (auth.uid() = user_id);
        """

    @Test func theInsertProbesGiveTheJSONColumnsJSON() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("jsoncheck").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        let report = ObservedAccessReport(draft, planFile: "plan.yml")
        #expect(report.errorLines.isEmpty, "\(report.errorLines)")
        #expect(draft.yaml.contains(#"value: "'{}'""#), "\(draft.yaml)")
        #expect(draft.yaml.contains(#"shape: "'{}'""#), "\(draft.yaml)")
        #expect(draft.yaml.contains(#"kind: "'theme'""#), "\(draft.yaml)")
        let relation = try #require(draft.plan.relations.first { $0.name == "settings" })
        #expect(relation.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own))
        #expect(relation.access["service"]?.insert == .all)
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }
}
