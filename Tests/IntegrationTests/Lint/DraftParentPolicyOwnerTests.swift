import Foundation
import Testing
import WardenKit
import TestSupport

/// A row owned through the parent its policy reads (`exists (select 1 from descriptions
/// d where d.id = description_id)`): the owner rule follows that parent, by its keys
/// before its helper rule.
@Suite struct DraftParentPolicyOwnerTests {
    /// Tags naming a pod and the description the policy checks: the owner rule followed
    /// the first key (`pod_id`), so ava's tag on her own description naming ben's pod was
    /// "another user's row", and "may insert other users' rows" was made up (a device
    /// fleet's pod tags, round thirty-five). The parent the policy names comes first.
    @Test func theParentThePolicyNamesIsTheOneFollowed() throws {
        let draft = try DraftRealProjectShapesTests.draft("policyparent", DraftRealProjectShapesTests.teamsAndMembers + """
            create table public.descriptions (id bigint generated always as identity primary key,
              team_id uuid not null references public.teams (id), name text not null);
            create table public.pods (id uuid primary key default gen_random_uuid(),
              description_id bigint not null references public.descriptions (id));
            create table public.tags (id bigint generated always as identity primary key,
              pod_id uuid not null references public.pods (id), description_id bigint not null references public.descriptions (id),
              tag text not null);
            alter table public.descriptions enable row level security;
            alter table public.pods enable row level security;
            alter table public.tags enable row level security;
            create policy descriptions_member on public.descriptions for all to authenticated
              using (public.in_team(team_id)) with check (public.in_team(team_id));
            create policy pods_member on public.pods for all to authenticated
              using (exists (select 1 from public.descriptions d where d.id = description_id))
              with check (exists (select 1 from public.descriptions d where d.id = description_id));
            create policy tags_member on public.tags for all to authenticated
              using (exists (select 1 from public.descriptions d where d.id = description_id))
              with check (exists (select 1 from public.descriptions d where d.id = description_id));
            """)
        let tags = try #require(draft.plan.relations.first { $0.name == "tags" })
        #expect(tags.owner?.hasPrefix("description_id in (select p1.id from public.descriptions p1") == true, "\(draft.yaml)")
        let own = Access(select: .own, insert: .own, update: .own, delete: .own)
        try DraftRealProjectShapesTests.expectEveryCellProbed(draft, table: "tags", ava: own)
        try DraftRealProjectShapesTests.expectEveryCellProbed(draft, table: "pods", ava: own)
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
    }

    /// A parent owned through its own key (`trainings.created_by -> profiles.id`) that a
    /// permission helper also lets its managers write (`can_manage(project_id)`): the
    /// helper's rule, which no persona holds, was followed first, and a training app's
    /// modules went unprobed (round thirty-five, a review of this round's own change).
    @Test func aParentsOwnKeysComeBeforeItsHelperRule() throws {
        let draft = try DraftRealProjectShapesTests.draft("parentkeysfirst", """
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade);
            create function public.on_signup() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            create table public.project_admins (project_id bigint not null, user_id uuid not null references auth.users (id),
              primary key (project_id, user_id));
            create table public.trainings (id bigint generated always as identity primary key, project_id bigint not null default 1,
              created_by uuid not null references public.profiles (id));
            create table public.modules (id bigint generated always as identity primary key,
              training_id bigint not null references public.trainings (id), title text not null);
            alter table public.profiles enable row level security;
            alter table public.project_admins enable row level security;
            alter table public.trainings enable row level security;
            alter table public.modules enable row level security;
            create function public.can_manage(p bigint) returns boolean language sql security definer set search_path = '' stable as $$
              select exists (select 1 from public.project_admins a where a.project_id = p and a.user_id = auth.uid()) $$;
            create policy own_profile on public.profiles for select to authenticated using (id = auth.uid());
            create policy managers on public.trainings for all to authenticated using (public.can_manage(project_id));
            create policy creators on public.trainings for select to authenticated
              using (created_by in (select p.id from public.profiles p where p.id = auth.uid()));
            create policy modules_of_trainings on public.modules for all to authenticated
              using (exists (select 1 from public.trainings t where t.id = training_id))
              with check (exists (select 1 from public.trainings t where t.id = training_id));
            """)
        let modules = try #require(draft.plan.relations.first { $0.name == "modules" })
        #expect(modules.owner?.contains("created_by") == true, "\(draft.yaml)")
        #expect(modules.owner?.contains("can_manage") == false, "\(draft.yaml)")
    }
}
