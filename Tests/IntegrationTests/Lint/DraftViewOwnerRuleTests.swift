import Foundation
import Testing
import WardenKit
import TestSupport

/// A view's drafted owner rule is the owner rule of a table it reads only when that
/// rule is a valid condition on the view's own columns. The check parses and analyses
/// the rule against the view without planning it (`PREPARE`): the planner's join search
/// over a view of many tables took 20-60 ms a rule (issue 18). Both outcomes, and that
/// nothing stays prepared afterwards.
@Suite struct DraftViewOwnerRuleTests {
    static let schema = """
        create table public.notes (
          id bigint generated always as identity primary key,
          user_id uuid not null default auth.uid() references auth.users on delete cascade,
          body text not null);
        alter table public.notes enable row level security;
        create policy "own notes" on public.notes for all to authenticated
          using (user_id = auth.uid()) with check (user_id = auth.uid());
        -- Shows the owner column: the table's rule holds for it.
        create view public.my_notes with (security_invoker = true) as select id, user_id, body from public.notes;
        -- Hides it: the rule names a column the view does not have.
        create view public.note_bodies with (security_invoker = true) as select id, body from public.notes;
        """

    @Test func aViewTakesItsTablesRuleOnlyWhenItHasTheRulesColumns() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("viewowner").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        let owners = Dictionary(uniqueKeysWithValues: draft.plan.relations.map { ($0.name, $0.owner ?? "-") })
        #expect(owners["notes"] == "user_id = auth.uid()", "\(draft.yaml)")
        #expect(owners["my_notes"] == "user_id = auth.uid()", "\(draft.yaml)")
        #expect(owners["note_bodies"] == "-", "\(draft.yaml)")
        // Without a rule, a signed-in persona's one row of two is neither all nor own: some.
        #expect(draft.yaml.contains("  note_bodies:\n    access:\n      anon: none\n      ava: { select: some }"), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
        #expect(draft.yaml.contains("  my_notes:\n    owner: \"user_id = auth.uid()\"\n    access:\n      anon: none\n      ava: { select: own }"),
                "\(draft.yaml)")
        // The check's prepared statement did not outlive it.
        #expect(try connection.query("select count(*)::text from pg_prepared_statements where name = 'pgwarden_view_owner_rule'").scalar == "0")
    }
}
