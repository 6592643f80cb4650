import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A persona of the draft is an ordinary signed-in user. The draft's setup gave each
/// persona a row of every table it could own, with a role column's first value: the
/// first label of `app_role ('admin', ...)`, or the first row of a lookup table
/// (`app_roles`), so both personas became administrators, and every cell and DANGER for
/// "a signed-in user" described an administrator (found on a community site with a
/// custom access token hook and `authorize()`, and on an admin panel). And a policy that
/// checks who the user is (`exists (... m.role_id = 'admin')`, no column of its table)
/// was taken as the table's owner rule, so no row was anyone's and service_role's update
/// and delete could not be probed.
///
/// Now a role column's values that the project's policies or functions name come last,
/// a table whose role column has no other value gets no persona row (a fresh sign-up
/// has none), and an expression that reads no column of its table is no owner rule.
@Suite struct DraftSingledOutRoleTests {
    /// Secrets only admins may read, by a role enum; a role row each user may read.
    static let enumRoles = """
        create type public.app_role as enum ('admin', 'member');
        create table public.user_roles (
          user_id uuid primary key references auth.users on delete cascade,
          role public.app_role not null);
        create table public.secrets (id int generated always as identity primary key, body text not null);
        insert into public.secrets (body) values ('only admins');
        alter table public.user_roles enable row level security;
        alter table public.secrets enable row level security;
        create policy "own role" on public.user_roles for select to authenticated using (user_id = (select auth.uid()));
        create policy "admins" on public.secrets for all to authenticated
          using (exists (select 1 from public.user_roles r where r.user_id = (select auth.uid()) and r.role = 'admin'))
          with check (exists (select 1 from public.user_roles r where r.user_id = (select auth.uid()) and r.role = 'admin'));
        grant select on public.user_roles to authenticated;
        grant select, insert, update, delete on public.secrets to authenticated;
        """

    @Test func aRoleEnumGivesThePersonasTheValueNoPolicyNames() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("singledenum").project)
        try connection.execute(unsafeScript: Self.enumRoles)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.yaml.contains("'member'"), "\(draft.yaml)")
        #expect(!draft.plan.setup.joined().contains("'admin'"), "\(draft.plan.setup)")
        let secrets = try #require(draft.plan.relations.first { $0.name == "secrets" })
        #expect(secrets.access["ava"]?.select == .nothing, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("secrets") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    @Test func aRoleWhoseEveryValueAPolicyNamesGivesThePersonasNoRow() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("singledall").project)
        try connection.execute(unsafeScript: Self.enumRoles.replacingOccurrences(
            of: "('admin', 'member')", with: "('admin', 'moderator')"
        ).replacingOccurrences(of: "r.role = 'admin'", with: "r.role in ('admin', 'moderator')"))
        let draft = try PlanDrafter(connection: connection).draft()
        // Only someone who is no persona gets a row, so that it can be probed (no one had
        // one before round thirty-seven, and even the service role's cells were unprobed).
        let roles = try #require(draft.plan.setup.first { $0.contains("insert into public.user_roles") }, "\(draft.plan.setup)")
        #expect(roles.contains("u.email in ('someone.draft@example.com')"), "\(roles)")
        #expect(!roles.contains("ava.draft@example.com"), "\(roles)")
        #expect(draft.yaml.contains("    # NOTE: the draft gives the personas no row here: every value of role (admin, moderator)"),
                "\(draft.yaml)")
        #expect(draft.yaml.contains("the setup gives one to someone who is no persona (someone.draft@example.com)"), "\(draft.yaml)")
        // What the persona's own row would prove, in one note: it has none.
        #expect(draft.yaml.contains("      # NOTE: update own row, move own row to another user, delete own row: cannot probe: the owner "
                                    + "rule (user_id = auth.uid()) does not hold for the one row of public.user_roles as ben"),
                "\(draft.yaml)")
        let userRoles = try #require(draft.plan.relations.first { $0.name == "user_roles" })
        #expect(userRoles.access["service"] == .everything, "\(draft.yaml)")
        #expect(!draft.report.results.contains {
            $0.subject == "public.user_roles" && ["anon", "service"].contains($0.persona) && $0.observed.hasPrefix("cannot probe")
        }, "\(draft.report.results.filter { $0.subject == "public.user_roles" }.map { "\($0.name): \($0.observed)" })")
        let secrets = try #require(draft.plan.relations.first { $0.name == "secrets" })
        #expect(secrets.access["ben"]?.select == .nothing, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("secrets") }, "\(draft.dangerCells)")
        #expect(try connection.query("select count(*)::text from public.user_roles").scalar == "0")
    }

    /// A profile whose role has no default and no value the rules do not name, and a
    /// table naming its user through that profile (a psychology clinic's `profiles` and
    /// clinical records, round thirty-six): no persona gets a profile, so no persona's
    /// record could be made either (refused by the foreign key), and neither table had
    /// a row to probe, even for the service role. Someone who is no persona now gets
    /// both, and the personas' reads of another user's row are proved.
    @Test func aTableNamingItsUserThroughSuchARoleRowGetsARowOfTheStandIn() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("singledchain").project)
        try connection.execute(unsafeScript: """
            create table public.profiles (
              id uuid primary key references auth.users (id) on delete cascade,
              role text not null check (role in ('admin', 'therapist')));
            alter table public.profiles enable row level security;
            create function public.my_role() returns text language sql stable security definer set search_path = ''
              as $$ select role from public.profiles where id = auth.uid() $$;
            create policy "own" on public.profiles for select to authenticated using (id = auth.uid() or public.my_role() = 'admin');
            create policy "join" on public.profiles for insert to authenticated with check (id = auth.uid() and role = 'therapist');
            create table public.records (
              id bigint generated always as identity primary key,
              therapist_id uuid not null references public.profiles (id),
              body text not null);
            alter table public.records enable row level security;
            create policy "own records" on public.records for all to authenticated
              using (therapist_id = auth.uid() or public.my_role() = 'admin') with check (therapist_id = auth.uid());
            grant select, insert, update, delete on public.profiles, public.records to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let records = try #require(draft.plan.setup.first { $0.contains("insert into public.records") }, "\(draft.plan.setup)")
        #expect(records.contains("u.email in ('someone.draft@example.com')"), "\(records)")
        #expect(draft.yaml.contains("its therapist_id names a row of public.profiles, which no persona has"), "\(draft.yaml)")
        let relation = try #require(draft.plan.relations.first { $0.name == "records" })
        #expect(relation.access["service"] == .everything, "\(draft.yaml)")
        #expect(relation.access["ava"]?.select == .nothing, "\(draft.yaml)")
        // ava's read of another user's record, and anon's and the service role's, are stated.
        #expect(!draft.report.results.contains {
            $0.subject == "public.records" && $0.observed.hasPrefix("cannot probe")
                && ($0.persona != "ava" && $0.persona != "ben" || $0.name.contains("select"))
        }, "\(draft.report.results.filter { $0.subject == "public.records" }.map { "\($0.persona) \($0.name): \($0.observed)" })")
        #expect(draft.dangers == 0, "\(draft.dangerCells)")
        #expect(try connection.query("select count(*)::text from public.records").scalar == "0")
    }

    @Test func aLookupRoleRowIsOneNoPolicyNamesAndAnAdminCheckIsNoOwnerRule() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("singledlookup").project)
        try connection.execute(unsafeScript: """
            create table public.app_roles (id text primary key);
            insert into public.app_roles values ('admin'), ('viewer');
            create table public.memberships (
              user_id uuid primary key references auth.users on delete cascade,
              role_id text not null references public.app_roles);
            create table public.settings (id int generated always as identity primary key, value text not null);
            insert into public.settings (value) values ('x');
            alter table public.app_roles enable row level security;
            alter table public.memberships enable row level security;
            alter table public.settings enable row level security;
            create policy "roles" on public.app_roles for select to authenticated using (true);
            create policy "own membership" on public.memberships for select to authenticated
              using (user_id = (select auth.uid()));
            create policy "read" on public.settings for select to authenticated using (true);
            create policy "admins write" on public.settings for all to authenticated
              using (exists (select 1 from public.memberships m where m.user_id = (select auth.uid()) and m.role_id = 'admin'))
              with check (exists (select 1 from public.memberships m where m.user_id = (select auth.uid()) and m.role_id = 'admin'));
            grant select on public.app_roles, public.memberships to authenticated;
            grant select, insert, update, delete on public.settings to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let settings = try #require(draft.plan.relations.first { $0.name == "settings" })
        #expect(settings.owner == nil, "\(draft.yaml)")
        #expect(settings.access["ava"] == Access(select: .all, insert: .nothing, update: .nothing, delete: .nothing), "\(draft.yaml)")
        #expect(settings.access["service"] == .everything, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("settings") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Roles as rows of a lookup table, whatever the columns are called: `profiles`
    /// ('admin', 'clerk'), assigned in `user_profiles`, which a helper the policies call
    /// reads by `auth.uid()`. Every profile is named by the helper's callers, so a fresh
    /// sign-up, with no profile, is what a persona is: no `user_profiles` row (found on a
    /// public-school funds app, whose personas were both made technical administrators).
    @Test func aLookupTableOfRolesThatEveryPolicyNamesGivesThePersonasNoRow() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("singledprofile").project)
        try connection.execute(unsafeScript: """
            create table public.profiles (id text primary key, label text not null);
            insert into public.profiles values ('admin', 'Administrator'), ('clerk', 'Clerk');
            create table public.user_profiles (
              user_id uuid primary key references auth.users on delete cascade,
              profile_id text not null references public.profiles);
            create function public.current_profile() returns text language sql stable security definer
              set search_path = '' as $$ select profile_id from public.user_profiles where user_id = auth.uid() $$;
            create table public.budgets (id int generated always as identity primary key, amount int not null);
            insert into public.budgets (amount) values (10);
            alter table public.profiles enable row level security;
            alter table public.user_profiles enable row level security;
            alter table public.budgets enable row level security;
            create policy "own profile" on public.user_profiles for select to authenticated using (user_id = (select auth.uid()));
            create policy "clerks read" on public.budgets for select to authenticated
              using ((select public.current_profile()) in ('clerk', 'admin'));
            create policy "admins write" on public.budgets for all to authenticated
              using ((select public.current_profile()) = 'admin') with check ((select public.current_profile()) = 'admin');
            grant select on public.user_profiles to authenticated;
            grant select, insert, update, delete on public.budgets to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(!draft.plan.setup.contains { $0.contains("public.user_profiles") && $0.contains("ava.draft@example.com") },
                "\(draft.plan.setup)")
        #expect(draft.yaml.contains("every value of profile_id (admin, clerk) is named"), "\(draft.yaml)")
        let budgets = try #require(draft.plan.relations.first { $0.name == "budgets" })
        #expect(budgets.access["ava"] == .nothing, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("budgets") }, "\(draft.dangerCells)")
    }

    /// Staff listed in a table of their own (`staff (user_id)`, read by `is_staff()`),
    /// which no signed-in user may add to: a row per persona made both personas staff,
    /// and every table behind `is_staff()` a made-up DANGER (a news site, round
    /// twenty-six); the setup gives it to someone who is no persona. A table users join
    /// themselves (`followers`) still gets their rows.
    @Test func aRowThatIsAPrivilegeIsNotGivenToThePersonas() throws {
        let draft = try DraftRealProjectShapesTests.draft("stafflist", """
            create table public.staff (user_id uuid primary key references auth.users (id), added_at timestamptz default now());
            alter table public.staff enable row level security;
            create policy "own" on public.staff for select using (user_id = auth.uid());
            create function public.is_staff() returns boolean language sql stable security definer set search_path = ''
              as $$ select exists (select 1 from public.staff where user_id = auth.uid()) $$;
            create table public.articles (id uuid primary key default gen_random_uuid(), title text not null);
            alter table public.articles enable row level security;
            create policy "staff" on public.articles for all using (public.is_staff()) with check (public.is_staff());
            create table public.followers (user_id uuid primary key references auth.users (id));
            alter table public.followers enable row level security;
            create policy "own" on public.followers for all to authenticated using (user_id = auth.uid());
            create function public.is_follower() returns boolean language sql stable security definer set search_path = ''
              as $$ select exists (select 1 from public.followers where user_id = auth.uid()) $$;
            create table public.letters (id uuid primary key default gen_random_uuid(), body text not null);
            alter table public.letters enable row level security;
            create policy "followers read" on public.letters for select using (public.is_follower());
            grant select, insert, update, delete on public.staff, public.articles, public.followers, public.letters to authenticated;
            """)
        // Someone who is no persona holds it: the table has a row, no persona the privilege.
        let staff = try #require(draft.plan.setup.first { $0.contains("insert into public.staff") }, "\(draft.plan.setup)")
        #expect(staff.contains("u.email in ('someone.draft@example.com')"), "\(staff)")
        let staffRelation = try #require(draft.plan.relations.first { $0.name == "staff" })
        #expect(staffRelation.access["ava"]?.select == Scope.nothing, "\(draft.yaml)")
        // anon's and service's "a user's row" is that row: the first persona has none.
        #expect(!draft.report.results.contains {
            $0.subject == "public.staff" && ["anon", "service"].contains($0.persona) && $0.observed.hasPrefix("cannot probe")
        }, "\(draft.report.results.filter { $0.subject == "public.staff" }.map { "\($0.name): \($0.observed)" })")
        #expect(draft.plan.setup.contains { $0.contains("insert into public.followers") }, "\(draft.plan.setup)")
        #expect(draft.yaml.contains("a row of public.staff names a user and nothing else"), "\(draft.yaml)")
        let articles = try #require(draft.plan.relations.first { $0.name == "articles" })
        #expect(articles.access["ava"] == .nothing, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("articles") }, "\(draft.dangerCells)")
    }

    /// Moderators are whoever has a row in `moderation_actions` (written by the service
    /// role only), and `reports` asks only that one exist: a row per persona made both
    /// personas moderators, and ava's read of every report a made-up DANGER (a
    /// marketplace, round twenty-seven). A table the sign-up writes to, or whose rows
    /// carry a role, still gets the personas' rows.
    @Test func aRowWhoseExistenceAnotherPolicyAsksForIsNotGivenToThePersonas() throws {
        let draft = try DraftRealProjectShapesTests.draft("moderators", """
            create table public.moderation_actions (
              id uuid primary key default gen_random_uuid(),
              moderator_id uuid not null references auth.users (id), action text not null);
            create table public.reports (
              id uuid primary key default gen_random_uuid(),
              reporter_id uuid not null default auth.uid() references auth.users (id), reason text not null);
            alter table public.moderation_actions enable row level security;
            alter table public.reports enable row level security;
            create policy ma_select on public.moderation_actions for select to authenticated using (moderator_id = auth.uid());
            create policy r_insert on public.reports for insert to authenticated with check (reporter_id = auth.uid());
            create policy r_select_own on public.reports for select to authenticated using (reporter_id = auth.uid());
            create policy r_select_moderator on public.reports for select to authenticated
              using (exists (select 1 from public.moderation_actions m where m.moderator_id = auth.uid()));
            create table public.grades (
              id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users (id), role text not null default 'student');
            alter table public.grades enable row level security;
            create policy g_select on public.grades for select to authenticated using (user_id = auth.uid());
            create table public.notices (id uuid primary key default gen_random_uuid(), body text not null);
            alter table public.notices enable row level security;
            create policy n_select on public.notices for select to authenticated
              using (exists (select 1 from public.grades g where g.user_id = auth.uid()));
            """)
        #expect(!draft.plan.setup.contains { $0.contains("insert into public.moderation_actions") && $0.contains("ava.draft") },
                "\(draft.plan.setup)")
        #expect(draft.yaml.contains("a row of public.moderation_actions is what another table's policy asks a user to have"),
                "\(draft.yaml)")
        let reports = try #require(draft.plan.relations.first { $0.name == "reports" })
        #expect(reports.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("reports") }, "\(draft.dangerCells)")
        // A row carrying a role says more than that it exists: the personas keep theirs.
        #expect(draft.plan.setup.contains { $0.contains("insert into public.grades") && $0.contains("ava.draft") },
                "\(draft.plan.setup)")
    }

    /// An organisation row whose `settings jsonb default '{}'` equals a literal a helper
    /// writes (`coalesce(..., '{}')`): the row counted as one the rules name, the one
    /// organisation as a role every value of which is named, and the personas got no
    /// profile (an HR app, round thirty-seven: 126 employee cells unprobed, and a note
    /// naming the organisation's id as if a rule did). Only a text or a number names a row.
    @Test func aJSONValueEqualToALiteralNamesNoRow() throws {
        let draft = try DraftRealProjectShapesTests.draft("jsonnamed", """
            create table public.organizations (id uuid primary key default gen_random_uuid(), name text not null,
              settings jsonb not null default '{}');
            insert into public.organizations (name) values ('Acme');
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade,
              organization_id uuid not null references public.organizations (id), role text not null default 'employee');
            create function public.my_org() returns uuid language sql stable security definer set search_path = public
              as $$ select organization_id from public.profiles where id = auth.uid() $$;
            create function public.org_settings() returns jsonb language sql stable security definer set search_path = public
              as $$ select coalesce((select settings from public.organizations where id = public.my_org()), '{}') $$;
            create function public.is_admin() returns boolean language sql stable security definer set search_path = public
              as $$ select exists (select 1 from public.profiles where id = auth.uid() and role = 'admin') $$;
            alter table public.organizations enable row level security;
            create policy "own org" on public.organizations for select to authenticated
              using (id = public.my_org() and public.org_settings() is not null);
            alter table public.profiles enable row level security;
            create policy "own profile" on public.profiles for select to authenticated using (id = auth.uid() or public.is_admin());
            """)
        #expect(!draft.yaml.contains("every value of organization_id"), "\(draft.yaml)")
        let profiles = try #require(draft.plan.setup.first { $0.contains("insert into public.profiles") }, "\(draft.plan.setup)")
        #expect(profiles.contains("ava.draft@example.com"), "\(profiles)")
        let relation = try #require(draft.plan.relations.first { $0.name == "profiles" })
        #expect(relation.access["ava"]?.select == .own, "\(draft.yaml)")
    }

    /// 'student' named only by an admin RPC counting the organisation's students
    /// (`where role = 'student'`), beside 'admin' and 'teacher' that the policies name:
    /// every value counted as singled out, so no persona had a member row, and every
    /// table a student uses was unprobed (194 of 708 probes on an exam-prep LMS; round
    /// thirty-eight). The personas are now students, and the membership checks run.
    @Test func aValueOnlyAnAdminFunctionNamesIsAnOrdinaryUsers() throws {
        let draft = try DraftRealProjectShapesTests.draft("adminrpcvalue", """
            create table public.orgs (id uuid primary key default gen_random_uuid(), name text not null);
            create table public.members (id uuid primary key references auth.users (id) on delete cascade,
              org_id uuid not null references public.orgs (id), role text not null check (role in ('admin', 'teacher', 'student')));
            create table public.attempts (id uuid primary key default gen_random_uuid(),
              org_id uuid not null references public.orgs (id), student_id uuid not null references public.members (id),
              score int not null default 0);
            alter table public.orgs enable row level security;
            alter table public.members enable row level security;
            alter table public.attempts enable row level security;
            create function public.my_org() returns uuid language sql stable security definer set search_path = '' as $$
              select org_id from public.members where id = auth.uid() $$;
            create function public.my_role() returns text language sql stable security definer set search_path = '' as $$
              select role from public.members where id = auth.uid() $$;
            create policy "same org" on public.members for select using (org_id = public.my_org());
            create policy "own attempts" on public.attempts using (student_id = auth.uid()) with check (student_id = auth.uid());
            create policy "teachers read" on public.attempts for select
              using (org_id = public.my_org() and public.my_role() in ('teacher', 'admin'));
            create function public.count_students() returns bigint language sql stable security definer set search_path = '' as $$
              select count(*) from public.members
              where org_id = (select org_id from public.members where id = auth.uid() and role = 'admin') and role = 'student' $$;
            """)
        #expect(draft.yaml.contains("'student'"), "\(draft.yaml)")
        #expect(draft.plan.checks.contains { $0.name.hasPrefix("ava joins a public.orgs row of ben's") }, "\(draft.yaml)")
        let attempts = try #require(draft.plan.relations.first { $0.name == "attempts" })
        #expect(attempts.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// The order values are given in: unnamed first; a value only functions no policy
    /// calls name, whose name says little ('student'); those the rules name, in their
    /// order (a clinic's 'super_admin' first, whose stand-in row needs no clinic: put
    /// last, the stand-in's 'therapist' row broke a check and profiles had no row); a
    /// weighty value only such functions name ('admin' in an admin RPC's guard) last.
    @Test func valuesAreOrderedByWhoNamesThem() {
        var values = DraftSingledOutValues()
        values.literals = ["admin", "teacher", "student", "user", "super_admin", "therapist"]
        values.ruleLiterals = ["admin", "teacher", "super_admin", "therapist"]
        #expect(values.ordinaryFirst(["admin", "teacher", "student"]) == ["student", "admin", "teacher"])
        #expect(values.ordinaryFirst(["super_admin", "therapist"]) == ["super_admin", "therapist"])
        values.ruleLiterals = ["user"]
        #expect(values.ordinaryFirst(["admin", "user", "guest"]) == ["guest", "user", "admin"])
        #expect(!values.namesEvery(["admin", "user"]))
    }
}
