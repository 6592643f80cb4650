import Foundation
import Testing
import WardenKit
import TestSupport

/// A marketplace table whose SELECT policy has a public branch OR'ed with membership
/// (`published or org_id in (...members of auth.uid()...)`), while its insert, update and
/// delete policies are membership alone (a SaaS starter's service listings). The draft
/// took the first policy expression that calls auth.uid() as the owner rule, the one with
/// the public branch: every published row was then every persona's "own", no other user's
/// row existed to probe, and the drafted plan failed on "cannot probe" cells. The owner
/// rule is now that expression's ownership branch (`OwnerRuleBranch`; another policy's
/// expression may be stricter, e.g. owners and admins only, and own nothing): each
/// persona owns its organisation's posts, the other user's post is there to probe, and
/// the plan passes.
@Suite struct DraftOwnerRuleChoiceTests {
    static let schema = """
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
        create table public.posts (
          id uuid primary key default gen_random_uuid(),
          org_id uuid not null references public.orgs on delete cascade,
          published boolean not null default true);
        alter table public.posts enable row level security;
        create policy "a read" on public.posts for select to authenticated
          using (published or org_id in (select m.org_id from public.members m where m.user_id = auth.uid()));
        create policy "b write" on public.posts for insert to authenticated
          with check (org_id in (select m.org_id from public.members m where m.user_id = auth.uid()));
        create policy "c change" on public.posts for update to authenticated
          using (org_id in (select m.org_id from public.members m where m.user_id = auth.uid()));
        create policy "d remove" on public.posts for delete to authenticated
          using (org_id in (select m.org_id from public.members m where m.user_id = auth.uid()));
        """

    @Test func theOwnerRuleIsTheMembershipNotThePublicBranch() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("ownerchoice").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        let posts = try #require(draft.plan.relations.first { $0.name == "posts" })
        #expect(posts.owner?.contains(" OR ") == false, "\(draft.yaml)")
        #expect(posts.access["ava"] == Access(select: .all, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(posts.access["ben"] == posts.access["ava"], "\(draft.yaml)")
        #expect(!draft.yaml.contains("# NOTE"), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.passed, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        #expect(try connection.query("select count(*)::text from public.posts").scalar == "0")
    }
}
