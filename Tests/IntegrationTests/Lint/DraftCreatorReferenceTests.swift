import Foundation
import Testing
import WardenKit
import TestSupport

/// Households made by an RPC (no sign-up trigger, so no membership row before the
/// draft's setup), readable through a security definer helper (`is_member(id)`, no
/// owner column in any policy), with a `created_by` column naming their creator, and a
/// membership table whose rows point at one. The draft's setup gives each persona a
/// household (its `created_by` is the persona) and then a membership row; the
/// membership's household was "the first household there is" (no membership yet to
/// follow), ava's for both, so ben became a member of ava's household, and the run saw
/// ava read ben's membership: a made-up DANGER ("sees other users' rows"), and a plan
/// that failed its own next run. Now a referenced row the persona created (a column
/// referencing auth.users that the setup filled with the persona) comes before any
/// row: each persona is a member of its own household only. Found on a family-organiser
/// app (households, members, records).
@Suite struct DraftCreatorReferenceTests {
    static let schema = """
        create table public.households (
          id uuid primary key default gen_random_uuid(),
          created_by uuid not null references auth.users on delete cascade,
          name text);
        create table public.household_members (
          household_id uuid not null references public.households on delete cascade,
          user_id uuid not null references auth.users on delete cascade,
          primary key (household_id, user_id));
        create function public.is_member(h uuid) returns boolean
        language sql stable security definer set search_path = '' as $$
          select exists (select 1 from public.household_members m where m.household_id = h and m.user_id = auth.uid())
        $$;
        alter table public.households enable row level security;
        alter table public.household_members enable row level security;
        create policy "members read households" on public.households for select to authenticated
          using ((select public.is_member(id)));
        create policy "members read members" on public.household_members for select to authenticated
          using ((select public.is_member(household_id)));
        grant select on public.households, public.household_members to authenticated;
        """

    @Test func eachPersonaIsAMemberOfTheHouseholdItCreated() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("creatorref").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        let members = try #require(draft.plan.relations.first { $0.name == "household_members" })
        #expect(members.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(members.access["ben"]?.select == .own, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("household_members") }, "\(draft.dangerCells)")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.failures.isEmpty, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        #expect(try connection.query("select count(*)::text from public.households").scalar == "0")
    }
}
