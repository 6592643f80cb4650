import Foundation
import Testing
import WardenKit
import TestSupport

/// A table owned through its parent (`household_id in (select ... where created_by =
/// auth.uid())`) with a `created_by uuid not null default auth.uid()` column: a real
/// request fills it with the signed-in user. The draft's setup runs as the admin, who has
/// no auth.uid(), so the default gave NULL, every setup row was refused ("null value in
/// column created_by"), every update and delete probe said "cannot probe", and the
/// drafted plan failed its own run. Now the setup gives such a column the persona, as
/// the persona's own insert would. Found on a home-inventory app (households, items).
@Suite struct DraftUserDefaultColumnTests {
    static let schema = """
        create table public.households (
          id uuid primary key default gen_random_uuid(),
          created_by uuid not null references auth.users on delete cascade);
        create table public.items (
          id uuid primary key default gen_random_uuid(),
          household_id uuid not null references public.households on delete cascade,
          created_by uuid not null default auth.uid() references auth.users,
          name text not null);
        alter table public.households enable row level security;
        alter table public.items enable row level security;
        create policy "own households" on public.households for all to authenticated
          using (created_by = (select auth.uid())) with check (created_by = (select auth.uid()));
        create policy "household items" on public.items for all to authenticated
          using (household_id in (select h.id from public.households h where h.created_by = (select auth.uid())))
          with check (household_id in (select h.id from public.households h where h.created_by = (select auth.uid())));
        """

    @Test func theSetupFillsAUserDefaultColumnWithThePersona() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("userdefault").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(!draft.yaml.contains("setup row was refused"), "\(draft.yaml)")
        let items = try #require(draft.plan.relations.first { $0.name == "items" })
        let own = Access(select: .own, insert: .own, update: .own, delete: .own)
        #expect(items.access["ava"] == own, "\(draft.yaml)")
        #expect(items.access["ben"] == own, "\(draft.yaml)")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.failures.isEmpty, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        #expect(try connection.query("select count(*)::text from public.items").scalar == "0")
    }
}
