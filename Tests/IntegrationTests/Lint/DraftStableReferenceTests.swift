import Foundation
import Testing
import WardenKit
import TestSupport

/// Organisations made by the sign-up trigger with `gen_random_uuid()` keys, and listings
/// that reference one (a shape of small SaaS starters). The draft's setup gives each
/// persona a listing whose organisation is a referenced row it picks; picked by key,
/// that was ava's organisation in one run and ben's in the next, so the observed access
/// and the drafted plan changed from run to run, and a plan drafted once failed later.
/// Now the setup picks, in the order the rows were made, an organisation the persona is
/// a member of (a table links organisations to users in a unique key; a log naming both
/// is no membership): every draft says the same, each
/// persona sees and changes its own listings (no DANGER is made up), and the drafted plan
/// passes run after run.
@Suite struct DraftStableReferenceTests {
    /// Organisations with members: each user signs up into an organisation of its own.
    static let organisations = """
        create table public.orgs (id uuid primary key default gen_random_uuid(), name text not null);
        create table public.members (
          org_id uuid not null references public.orgs on delete cascade,
          user_id uuid not null references auth.users on delete cascade,
          primary key (org_id, user_id));
        alter table public.orgs enable row level security;
        alter table public.members enable row level security;
        create policy "my membership" on public.members for select to authenticated using (user_id = (select auth.uid()));
        create policy "my orgs" on public.orgs for select to authenticated
          using (id in (select m.org_id from public.members m where m.user_id = auth.uid()));
        create function public.handle_new_user() returns trigger
        language plpgsql security definer set search_path = '' as $$
        declare o uuid;
        begin
          insert into public.orgs (name) values (coalesce(new.email, 'anonymous')) returning id into o;
          insert into public.members (org_id, user_id) values (o, new.id);
          return new;
        end $$;
        create trigger on_auth_user_created after insert on auth.users
          for each row execute function public.handle_new_user();
        """

    static let schema = organisations + "\n" + """
        -- Names an organisation and a user too, but is no membership (no unique key on them).
        create table public.a_log (
          org_id uuid references public.orgs on delete cascade,
          user_id uuid references auth.users on delete cascade, note text);
        alter table public.a_log enable row level security;
        create table public.listings (
          id uuid primary key default gen_random_uuid(),
          org_id uuid not null references public.orgs on delete cascade);
        alter table public.listings enable row level security;
        create policy "org listings" on public.listings for all to authenticated
          using (org_id in (select m.org_id from public.members m where m.user_id = auth.uid()))
          with check (org_id in (select m.org_id from public.members m where m.user_id = auth.uid()));
        """

    /// Each relation's access for ava and ben, as one line.
    private func accessLines(_ plan: AccessPlan) -> [String] {
        plan.relations.map { "\($0.name) ava=\(String(describing: $0.access["ava"])) ben=\(String(describing: $0.access["ben"]))" }
    }

    @Test func everyDraftSaysTheSameAndItsPlanPassesEveryRun() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("stableref").project)
        try connection.execute(unsafeScript: Self.schema)
        let first = try PlanDrafter(connection: connection).draft()
        for _ in 1...7 {
            let again = try PlanDrafter(connection: connection).draft()
            #expect(accessLines(again.plan) == accessLines(first.plan), "\(again.yaml)")
        }
        // Each persona's listing is in its own organisation: each sees and changes its own.
        let listings = try #require(first.plan.relations.first { $0.name == "listings" })
        #expect(listings.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(first.yaml)")
        #expect(listings.access["ben"] == listings.access["ava"], "\(first.yaml)")
        #expect(first.dangerCells.isEmpty, "\(first.dangerCells)")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(first.yaml)
        for _ in 1...4 {
            let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
            #expect(report.passed, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        }
        #expect(try connection.query("select count(*)::text from public.orgs").scalar == "0")
    }
}
