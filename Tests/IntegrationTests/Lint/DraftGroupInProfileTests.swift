import Foundation
import Testing
import WardenKit
import TestSupport

/// A user's company held in a column of the user's one profile (`profiles.company_id`),
/// which the sign-up trigger makes with no company, read by a security definer helper
/// (`is_company_member(id)`) that no policy's SQL names a column of. The setup left the
/// column NULL, so no persona belonged to any company: every company's and project's
/// cell was "cannot probe" (an influencer-marketing app, round thirty-one), and the hole
/// that mattered went unseen: a user may set their own profile's company to anyone's.
@Suite struct DraftGroupInProfileTests {
    /// Companies, profiles made by the sign-up trigger, and projects read and written by
    /// the members of their company; `profileUpdate` says who may update which profile columns.
    static func schema(profileUpdate: String) -> String {
        """
        create table public.companies (id uuid primary key default gen_random_uuid(), name text not null);
        create table public.profiles (
          id uuid primary key references auth.users on delete cascade,
          company_id uuid references public.companies, full_name text);
        create function public.is_company_member(c uuid) returns boolean language sql stable security definer
          set search_path = '' as $$
            select exists (select 1 from public.profiles p where p.id = auth.uid() and p.company_id = c) $$;
        create table public.projects (
          id uuid primary key default gen_random_uuid(),
          company_id uuid not null references public.companies, title text not null);
        alter table public.companies enable row level security;
        alter table public.profiles enable row level security;
        alter table public.projects enable row level security;
        create policy "members read their company" on public.companies for select to authenticated
          using (public.is_company_member(id));
        create policy "own profile" on public.profiles for select to authenticated using (id = auth.uid());
        create policy "own profile edits" on public.profiles for update to authenticated
          using (id = auth.uid()) with check (id = auth.uid());
        create policy "members work on projects" on public.projects for all to authenticated
          using (public.is_company_member(company_id)) with check (public.is_company_member(company_id));
        create function public.handle_new_user() returns trigger language plpgsql security definer
          set search_path = '' as $$ begin insert into public.profiles (id) values (new.id); return new; end $$;
        create trigger on_auth_user_created after insert on auth.users
          for each row execute function public.handle_new_user();
        \(profileUpdate)
        """
    }

    static let moveCheck = "ava moves a public.profiles row of ava's into a public.companies row of ben's"

    @Test func eachPersonaBelongsToItsOwnCompanyAndMovingIntoAnotherIsADanger() throws {
        let draft = try DraftRealProjectShapesTests.draft("groupinprofile", Self.schema(profileUpdate: ""))
        let companies = try #require(draft.plan.relations.first { $0.name == "companies" })
        let projects = try #require(draft.plan.relations.first { $0.name == "projects" })
        #expect(companies.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(projects.access["ben"]?.delete == .own, "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: Self.moveCheck,
            danger: "public.profiles · ava: a signed-in user may move themselves into another user's public.companies rows")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Where users may insert their profile, joining another company by a second profile
    /// is refused only because the first is there (23505): no check is kept for it, the
    /// move being the check (kept, "refused (23505)" read as a guard; round thirty-nine).
    @Test func aSecondProfileRefusedByItsKeyIsNoJoinCheck() throws {
        let draft = try DraftRealProjectShapesTests.draft("groupinprofileinsert", Self.schema(profileUpdate: """
            create policy "own profile insert" on public.profiles for insert to authenticated with check (id = auth.uid());
            """))
        let names = draft.plan.checks.map(\.name)
        #expect(!names.contains { $0.hasPrefix("ava joins a public.companies row of ben's") }, "\(names)")
        #expect(names.contains(Self.moveCheck), "\(names)")
    }

    /// The same, with the profile's company kept from clients (only `full_name` may be
    /// updated): each persona still has its company, and the move is refused, no DANGER.
    @Test func aCompanyClientsMayNotSetIsNoDanger() throws {
        let draft = try DraftRealProjectShapesTests.draft("groupinprofilegrant", Self.schema(profileUpdate: """
            revoke update on public.profiles from authenticated;
            grant update (full_name) on public.profiles to authenticated;
            """))
        let projects = try #require(draft.plan.relations.first { $0.name == "projects" })
        #expect(projects.access["ava"]?.select == .own, "\(draft.yaml)")
        let move = try #require(draft.plan.checks.first { $0.name == Self.moveCheck }, "\(draft.yaml)")
        #expect(move.expectation.sqlState == "42501", "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A profile keyed by its user (`profiles.id = auth.uid()`) naming the workspace the
    /// user works in, a column a custom access token hook issues as the claim the
    /// policies read: a move was tried only through a key other than the owner column,
    /// so only the profile's insert was (refused: profiles are the sign-up's), and a
    /// user setting their profile to another user's workspace, then reading its notes,
    /// went unseen (a training app, round thirty-five). The owner column is the key then.
    @Test func aProfileKeyedByItsUserIsMovedThroughThatKey() throws {
        let draft = try DraftRealProjectShapesTests.draft("profilekeymove", """
            create table public.workspaces (id bigint generated by default as identity primary key,
              title text not null default 'untitled', created_by uuid default auth.uid() references auth.users (id));
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade,
              current_workspace_id bigint references public.workspaces (id));
            alter table public.workspaces enable row level security;
            alter table public.profiles enable row level security;
            create function public.on_signup() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            create policy ws_read on public.workspaces for select to authenticated using (created_by = auth.uid());
            create policy ws_create on public.workspaces for insert to authenticated with check (created_by = auth.uid());
            create policy profile_read on public.profiles for select to authenticated using (id = auth.uid());
            create policy profile_update on public.profiles for update to authenticated using (id = auth.uid()) with check (id = auth.uid());
            """)
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava moves a public.profiles row of ava's into a public.workspaces row of ben's",
            danger: "public.profiles · ava: a signed-in user may move their public.profiles rows into other users' public.workspaces rows")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A profile with two keys: its organisation, required and filled by the sign-up
    /// trigger, and its employee record, which may be null and which `my_employee_id()`
    /// reads (an HR app, round thirty-seven). The setup filled only the organisation:
    /// no persona was an employee, every employee-scoped cell was unprobed, and "no
    /// dangers found" hid that any employee may file leave for any other.
    @Test func aSecondKeyOfTheProfileAHelperReadsIsFilledToo() throws {
        let draft = try DraftRealProjectShapesTests.draft("profiletwokeys", """
            create table public.organizations (id uuid primary key default gen_random_uuid(), name text not null);
            insert into public.organizations (name) values ('Acme');
            create table public.employees (id uuid primary key default gen_random_uuid(),
              organization_id uuid not null references public.organizations (id), full_name text not null);
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade,
              organization_id uuid not null references public.organizations (id),
              employee_id uuid references public.employees (id));
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = public as $$
            begin
              insert into public.profiles (id, organization_id) values (new.id, (select id from public.organizations limit 1));
              return new;
            end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            create function public.my_org() returns uuid language sql stable security definer set search_path = public
              as $$ select organization_id from public.profiles where id = auth.uid() $$;
            create function public.my_employee_id() returns uuid language sql stable security definer set search_path = public
              as $$ select employee_id from public.profiles where id = auth.uid() $$;
            alter table public.organizations enable row level security;
            create policy "own org" on public.organizations for select to authenticated using (id = public.my_org());
            alter table public.profiles enable row level security;
            create policy "own profile" on public.profiles for select to authenticated using (id = auth.uid());
            alter table public.employees enable row level security;
            create policy "own employee record" on public.employees for select to authenticated using (id = public.my_employee_id());
            create table public.leave_requests (id uuid primary key default gen_random_uuid(),
              employee_id uuid not null references public.employees (id), hours int not null default 8);
            alter table public.leave_requests enable row level security;
            create policy "read own" on public.leave_requests for select to authenticated using (employee_id = public.my_employee_id());
            create policy "employees file leave" on public.leave_requests for insert to authenticated
              with check (public.my_employee_id() is not null);
            """)
        let profiles = try #require(draft.plan.setup.first { $0.contains("insert into public.profiles") }, "\(draft.plan.setup)")
        #expect(profiles.contains("employee_id = coalesce(profiles.employee_id, excluded.employee_id)"), "\(profiles)")
        let leave = try #require(draft.plan.relations.first { $0.name == "leave_requests" })
        #expect(leave.access["ava"] == Access(select: .own, insert: .all, update: .nothing, delete: .nothing), "\(draft.yaml)")
        #expect(draft.dangerCells.contains { $0.hasPrefix("public.leave_requests · ava: a signed-in user may insert other users' rows") },
                "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
