import Foundation
import Testing
import WardenKit
import TestSupport

/// A table whose owner column a BEFORE UPDATE trigger guards (`raise exception 'owner
/// cannot be changed'`, SQLSTATE P0001: a common pattern next to the policies). The
/// draft observes the move refused and states `update: own`; the run of that plan then
/// failed its "move own row to another user" probe with "error P0001" (only 42501 or no
/// row affected counted as a refusal), so a plan drafted from the database failed on
/// that same database. A move the database's own code refuses with an exception is
/// refused: the row stays with its owner. It passes when the plan refuses the move, and
/// still fails when the plan says the move is allowed. Found on a family-organiser app.
@Suite struct DraftOwnerGuardTriggerTests {
    static let schema = """
        create table public.notes (
          id bigint generated always as identity primary key,
          user_id uuid not null default auth.uid() references auth.users on delete cascade,
          body text);
        alter table public.notes enable row level security;
        create policy "own notes" on public.notes for all to authenticated
          using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
        create function public.keep_owner() returns trigger language plpgsql as $$
        begin
          if new.user_id is distinct from old.user_id then
            raise exception 'owner cannot be changed';
          end if;
          return new;
        end $$;
        create trigger keep_owner before update on public.notes for each row execute function public.keep_owner();
        """

    @Test func aMoveRefusedByATriggerIsRefused() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("ownerguard").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.failures.isEmpty, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        let move = report.results.first { $0.persona == "ava" && $0.subject == "public.notes" && $0.probe == "move own row to another user" }
        #expect(move?.observed.contains("P0001: owner cannot be changed") == true, "\(String(describing: move))")

        // A plan that says ava may update every row expects the move to go through: still a failure.
        let allowing = try AccessPlanParser(file: "allowing.yml").parse(
            draft.yaml.replacingOccurrences(of: "ava: { select: own, insert: own, update: own, delete: own }",
                                            with: "ava: { select: own, insert: own, update: all, delete: own }"))
        let failed = try AccessPlanRunner(connection: connection, plan: allowing).run()
        #expect(failed.failures.contains { $0.name.contains("ava") && $0.name.contains("move own row") },
                "\(failed.failures.map { "\($0.name): \($0.observed)" })")
        #expect(try connection.query("select count(*)::text from public.notes").scalar == "0")
    }

    /// The same for a BEFORE DELETE trigger that refuses deleting locked rows: the
    /// plan-less run showed an ERROR for every delete, and the drafted plan (no delete)
    /// failed its own run on "error P0001". A plan that allows the delete still fails.
    @Test func aDeleteRefusedByATriggerIsRefused() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("deleteguard").project)
        try connection.execute(unsafeScript: Self.schema + """

            create function public.keep_locked() returns trigger language plpgsql as $$
            begin raise exception 'locked notes cannot be deleted'; end $$;
            create trigger keep_locked before delete on public.notes for each row execute function public.keep_locked();
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .nothing), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
        let delete = draft.report.results.first { $0.persona == "ava" && $0.probe == "delete own row" }
        #expect(delete?.observed == "refused by the database's own code (P0001: locked notes cannot be deleted): the row is as it was",
                "\(String(describing: delete))")
        let allowing = try AccessPlanParser(file: "allowing.yml").parse(
            draft.yaml.replacingOccurrences(of: "ava: { select: own, insert: own, update: own }",
                                            with: "ava: { select: own, insert: own, update: own, delete: own }"))
        let failed = try AccessPlanRunner(connection: connection, plan: allowing).run()
        #expect(failed.failures.map(\.name).contains { $0.contains("ava") && $0.contains("delete own row") },
                "\(failed.failures.map { "\($0.name): \($0.observed)" })")
        #expect(try connection.query("select count(*)::text from public.notes").scalar == "0")
    }

    /// A delete whose foreign key cascades into an append-only history (`create rule ...
    /// as on delete to ... do instead nothing`) fails with XX000 "referential integrity
    /// query ... gave unexpected result" for every client: the database's own rules
    /// refuse it. It was an ERROR line, and the drafted plan failed its own run (a
    /// restaurant app's audit log).
    @Test func aDeleteARuleTurnsAwayThroughACascadeIsRefused() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("deleterule").project)
        try connection.execute(unsafeScript: Self.schema + """

            create table public.note_versions (
              id bigint generated always as identity primary key,
              note_id bigint not null references public.notes (id) on delete cascade, body text);
            alter table public.note_versions enable row level security;
            create rule note_versions_kept as on delete to public.note_versions do instead nothing;
            create function public.keep_version() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.note_versions (note_id, body) values (new.id, new.body); return new; end $$;
            create trigger keep_version after insert on public.notes for each row execute function public.keep_version();
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.access["ava"]?.delete == .nothing, "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
        let delete = draft.report.results.first { $0.persona == "ava" && $0.probe == "delete own row" }
        #expect(delete?.observed.hasPrefix("refused by the database's own code (XX000: referential integrity query on ") == true,
                "\(String(describing: delete))")
    }
}
