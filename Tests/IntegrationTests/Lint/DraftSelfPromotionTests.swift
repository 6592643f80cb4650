import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A user making themselves an administrator by updating their own row (`update
/// profiles set is_admin = true where id = auth.uid()`): `update: own` held, and no
/// DANGER showed (an education app, round twenty-six). The draft checks it for each
/// column holding a privilege the project's rules read, and keeps it as it came out.
@Suite struct DraftSelfPromotionTests {
    static func profiles(_ extra: String) -> String {
        """
        create table public.profiles (
          id uuid primary key references auth.users (id) on delete cascade, display_name text not null default 'x',
          is_admin boolean not null default false, role text not null default 'member' check (role in ('member', 'admin')));
        create table public.notes (
          id bigint generated always as identity primary key,
          author_id uuid not null default auth.uid() references public.profiles (id), body text not null default '');
        create function public.is_admin() returns boolean language sql stable security definer set search_path = ''
          as $$ select exists (select 1 from public.profiles where id = (select auth.uid()) and (is_admin or role = 'admin')) $$;
        revoke execute on function public.is_admin() from public, anon;
        alter table public.profiles enable row level security;
        alter table public.notes enable row level security;
        revoke all on public.profiles, public.notes from anon, authenticated;
        grant select, insert on public.profiles to authenticated;
        grant select, insert on public.notes to authenticated;
        create policy "own or admin" on public.profiles for select to authenticated using (id = (select auth.uid()) or public.is_admin());
        create policy "make own" on public.profiles for insert to authenticated with check (id = (select auth.uid()));
        create policy "edit own" on public.profiles for update to authenticated
          using (id = (select auth.uid())) with check (id = (select auth.uid()));
        create policy "own or admin" on public.notes for select to authenticated using (author_id = (select auth.uid()) or public.is_admin());
        \(extra)
        """
    }

    @Test func aUserWhoMayUpdateTheirWholeProfileMakesThemselvesAnAdministrator() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfpromote", Self.profiles("grant update on public.profiles to authenticated;"))
        let names = draft.plan.checks.map(\.name)
        #expect(names == ["ava sets is_admin to true in a public.profiles row of ava's",
                          "ava sets role to 'admin' in a public.profiles row of ava's"], "\(draft.yaml)")
        #expect(draft.plan.checks.allSatisfy { $0.expectation.rowCount == 1 }, "\(draft.yaml)")
        #expect(draft.dangerCells.filter { $0.hasPrefix("public.profiles · ava: a signed-in user may set their own") }.count == 2,
                "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A roles table a user may add their own rows to (`with check (user_id = auth.uid())`,
    /// any role): inserting an own 'admin' row makes any user an administrator, which
    /// `insert: own` does not say (a recycling app's `user_roles`). Checked as an insert
    /// too, and kept as it came out: refused where the insert policy names the role.
    @Test func aUserWhoMayAddTheirOwnRoleRowsMakesThemselvesAnAdministrator() throws {
        func roles(_ insertCheck: String) -> String {
            """
            create type public.app_role as enum ('member', 'admin');
            create table public.user_roles (
              user_id uuid not null references auth.users on delete cascade,
              role public.app_role not null default 'member', primary key (user_id, role));
            alter table public.user_roles enable row level security;
            create policy "read own" on public.user_roles for select to authenticated using (user_id = (select auth.uid()));
            create policy "add own" on public.user_roles for insert to authenticated with check (\(insertCheck));
            create function public.is_admin() returns boolean language sql stable security definer set search_path = '' as $$
              select exists (select 1 from public.user_roles where user_id = auth.uid() and role = 'admin') $$;
            create table public.reports (id bigint generated always as identity primary key,
              owner uuid not null default auth.uid() references auth.users, body text not null default '');
            alter table public.reports enable row level security;
            create policy "own or admin" on public.reports for select to authenticated
              using (owner = (select auth.uid()) or (select public.is_admin()));
            """
        }
        let open = try DraftRealProjectShapesTests.draft("selfpromoteinsert", roles("user_id = (select auth.uid())"))
        let name = "ava inserts a public.user_roles row of ava's with role 'admin'"
        try DraftRealProjectShapesTests.expectWentThrough(
            open, check: name, danger: "public.user_roles · ava: a signed-in user may give themselves role 'admin'")
        #expect(open.verified, "\(DraftRealProjectShapesTests.failures(open))")

        let closed = try DraftRealProjectShapesTests.draft("selfpromoteinsertclosed",
                                                           roles("user_id = (select auth.uid()) and role <> 'admin'"))
        let refused = try #require(closed.plan.checks.first { $0.name == name }, "\(closed.yaml)")
        #expect(refused.expectation.sqlState == "42501", "\(closed.yaml)")
        #expect(!closed.dangerCells.contains { $0.contains("give themselves") }, "\(closed.dangerCells)")
        #expect(closed.verified, "\(DraftRealProjectShapesTests.failures(closed))")
    }

    /// One role row per user (`user_id unique`) that no sign-up trigger makes: the
    /// setup's row made the insert break the unique key, no check was kept, and "no
    /// dangers found" hid that any user's first row may be an admin's (a shop's
    /// `user_roles`, round thirty-eight). The insert is now the user's first row.
    @Test func aUsersFirstRoleRowMayBeAnAdministrators() throws {
        func roles(_ insertCheck: String) -> String {
            """
            create table public.user_roles (id uuid primary key default gen_random_uuid(),
              user_id uuid not null unique references auth.users (id),
              role text not null default 'user' check (role in ('admin', 'user')));
            alter table public.user_roles enable row level security;
            create policy "read own" on public.user_roles for select to authenticated using (user_id = auth.uid());
            create policy "add own" on public.user_roles for insert to authenticated with check (\(insertCheck));
            create table public.notes (id uuid primary key default gen_random_uuid(),
              author uuid not null default auth.uid() references auth.users (id), body text not null);
            alter table public.notes enable row level security;
            create policy "own notes" on public.notes for all to authenticated using (author = auth.uid()) with check (author = auth.uid());
            create policy "admins read" on public.notes for select to authenticated
              using (exists (select 1 from public.user_roles r where r.user_id = auth.uid() and r.role = 'admin'));
            """
        }
        let name = "ava, with no public.user_roles row yet, inserts one with role 'admin'"
        let open = try DraftRealProjectShapesTests.draft("firstroleopen", roles("user_id = auth.uid()"))
        try DraftRealProjectShapesTests.expectWentThrough(
            open, check: name, danger: "public.user_roles · ava: a signed-in user with no public.user_roles row yet may give themselves role 'admin'")
        #expect(open.verified, "\(DraftRealProjectShapesTests.failures(open))")

        let closed = try DraftRealProjectShapesTests.draft("firstroleclosed", roles("user_id = auth.uid() and role = 'user'"))
        let refused = try #require(closed.plan.checks.first { $0.name == name }, "\(closed.yaml)")
        #expect(refused.expectation.sqlState == "42501", "\(closed.yaml)")
        #expect(!closed.dangerCells.contains { $0.contains("give themselves") }, "\(closed.dangerCells)")
        #expect(closed.verified, "\(DraftRealProjectShapesTests.failures(closed))")
    }

    /// Several roles open to a user's own insert: the check tries the strongest by its
    /// name ('admin'), not the first the rules name ('helper': the DANGER understated
    /// what the same insert gave; round thirty-eight).
    @Test func theStrongestRoleOpenToTheUserIsTried() throws {
        let draft = try DraftRealProjectShapesTests.draft("strongestrole", """
            create type public.app_role as enum ('helper', 'member', 'admin');
            create table public.user_roles (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users (id), role public.app_role not null, unique (user_id, role));
            alter table public.user_roles enable row level security;
            create function public.has_role(u uuid, r public.app_role) returns boolean language sql stable security definer
              set search_path = '' as $$ select exists (select 1 from public.user_roles where user_id = u and role = r) $$;
            create policy "read own" on public.user_roles for select using (user_id = auth.uid());
            create policy "add own" on public.user_roles for insert with check (user_id = auth.uid());
            create table public.jobs (id uuid primary key default gen_random_uuid(),
              owner uuid not null references auth.users (id), title text not null);
            alter table public.jobs enable row level security;
            create policy "helpers read" on public.jobs for select using (public.has_role(auth.uid(), 'helper'));
            create policy "admins write" on public.jobs for all using (public.has_role(auth.uid(), 'admin'));
            """)
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava inserts a public.user_roles row of ava's with role 'admin'",
            danger: "public.user_roles · ava: a signed-in user may give themselves role 'admin'")
        #expect(DraftSingledOutValues.privilegeRank("super_admin") < DraftSingledOutValues.privilegeRank("moderator"))
        #expect(DraftSingledOutValues.privilegeRank("moderator") < DraftSingledOutValues.privilegeRank("helper"))
    }

    /// Only the display name is the user's to update (`grant update (display_name)`): nothing to try.
    @Test func aColumnGrantKeepsThePrivilegeAsItCameOut() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfpromotegrant", Self.profiles(
            "grant update (display_name) on public.profiles to authenticated;"))
        #expect(draft.plan.checks.isEmpty, "columns authenticated may not update are not tried: \(draft.plan.checks.map(\.name))")

        // A trigger that refuses a change of role: kept, expecting its P0001.
        let guarded = try DraftRealProjectShapesTests.draft("selfpromotetrigger", Self.profiles("""
            grant update on public.profiles to authenticated;
            create function public.keep_role() returns trigger language plpgsql as $$
            begin
              if new.role is distinct from old.role or new.is_admin is distinct from old.is_admin then
                raise exception 'only an administrator may change a role';
              end if;
              return new;
            end $$;
            create trigger keep_role before update on public.profiles for each row execute function public.keep_role();
            """))
        #expect(guarded.plan.checks.count == 2, "\(guarded.yaml)")
        #expect(guarded.plan.checks.allSatisfy { $0.expectation.sqlState == "P0001" }, "\(guarded.yaml)")
        #expect(!guarded.dangerCells.contains { $0.contains("may set their own") }, "\(guarded.dangerCells)")
        #expect(guarded.verified, "\(DraftRealProjectShapesTests.failures(guarded))")
    }

    /// A note's `kind` ('draft' or 'poll'), which only an RPC filtering the caller's own
    /// notes names (`where kind = 'poll' and owner_id = auth.uid()`): a category, not a
    /// privilege. No other table's policy reads notes, and their own policies do not name
    /// 'poll': there was a made-up DANGER, "may set their own kind to 'poll'" (a family
    /// planner app).
    @Test func aCategoryOnlyAFunctionOnTheCallersOwnRowsNamesIsNoPrivilege() throws {
        let draft = try DraftRealProjectShapesTests.draft("categorykind", """
            create table public.notes (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id),
              kind text not null default 'draft' check (kind in ('draft', 'poll')), body text);
            alter table public.notes enable row level security;
            create policy own on public.notes for all to authenticated
              using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
            create function public.close_poll(p_id uuid) returns void language sql security definer set search_path = '' as $$
              update public.notes set body = 'closed' where id = p_id and kind = 'poll' and owner_id = auth.uid();
            $$;
            """)
        #expect(!draft.plan.checks.contains { $0.name.contains("sets kind") }, "\(draft.plan.checks.map(\.name))")
        #expect(!draft.dangerCells.contains { $0.contains("kind") }, "\(draft.dangerCells)")
    }

    /// A bill's `status` ('draft', 'open', 'settled'), which an RPC reads to reuse the
    /// caller's draft, on a table a policy helper reads by a bill's key
    /// (`owns_bill(p_bill_id)`): neither says who a user is, so the status is no role (a
    /// bill-splitting app: "may set their own status to 'draft'" was a made-up DANGER).
    @Test func aLifecycleValueIsNoPrivilegeThoughAHelperReadsTheTableByKey() throws {
        let draft = try DraftRealProjectShapesTests.draft("billstatus", """
            create type public.bill_status as enum ('draft', 'open', 'settled');
            create table public.bills (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null references auth.users (id), status public.bill_status not null default 'draft');
            alter table public.bills enable row level security;
            create policy "own bills" on public.bills for all to authenticated
              using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
            create function public.create_bill() returns uuid language plpgsql security definer set search_path = '' as $$
            declare v_id uuid;
            begin
              select b.id into v_id from public.bills b where b.owner_id = (select auth.uid()) and b.status = 'draft' limit 1;
              if v_id is null then insert into public.bills (owner_id) values ((select auth.uid())) returning id into v_id; end if;
              return v_id;
            end $$;
            create table public.bill_items (id uuid primary key default gen_random_uuid(), bill_id uuid not null references public.bills (id));
            alter table public.bill_items enable row level security;
            create function public.owns_bill(p_bill_id uuid) returns boolean language sql stable security definer set search_path = '' as $$
              select exists (select 1 from public.bills b where b.id = p_bill_id and b.owner_id = (select auth.uid())) $$;
            create policy "items" on public.bill_items for all to authenticated
              using (public.owns_bill(bill_id)) with check (public.owns_bill(bill_id));
            """)
        #expect(!draft.plan.checks.contains { $0.name.contains("status") }, "\(draft.plan.checks.map(\.name))")
        #expect(!draft.dangerCells.contains { $0.contains("status") }, "\(draft.dangerCells)")
    }

    /// Staff of an outlet another user owns (`staff (user_id, outlet_id -> outlets
    /// (user_id), role)`), promoted only by the outlet's owner: the setup put ava's staff
    /// row in her own outlet, the owner's policy let her update it, and "may set their own
    /// role to 'manager'" was a made-up DANGER (a restaurant app). The check now tries a
    /// row of ava's in ben's outlet: refused there, and a DANGER where a staff member may
    /// update their own row.
    @Test func aMemberIsPromotedInAGroupOfAnotherUsers() throws {
        func staff(_ extra: String) -> String {
            """
            create type public.staff_role as enum ('waiter', 'manager');
            create table public.outlets (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users (id), name text not null default 'o');
            create table public.staff (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users (id), outlet_id uuid not null references public.outlets (id),
              role public.staff_role not null default 'waiter');
            create table public.reports (id uuid primary key default gen_random_uuid(),
              outlet_id uuid not null references public.outlets (id), body text);
            alter table public.outlets enable row level security;
            alter table public.staff enable row level security;
            alter table public.reports enable row level security;
            create policy "owner" on public.outlets for all to authenticated
              using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
            create policy "owners manage staff" on public.staff for all to authenticated
              using (exists (select 1 from public.outlets o where o.id = outlet_id and o.user_id = (select auth.uid())))
              with check (exists (select 1 from public.outlets o where o.id = outlet_id and o.user_id = (select auth.uid())));
            create policy "staff read own" on public.staff for select to authenticated using (user_id = (select auth.uid()));
            create policy "managers read reports" on public.reports for select to authenticated
              using (exists (select 1 from public.staff s where s.outlet_id = reports.outlet_id
                             and s.user_id = (select auth.uid()) and s.role = 'manager'));
            \(extra)
            """
        }
        let name = "ava sets role to 'manager' in a public.staff row of ava's in a public.outlets row of ben's"
        let guarded = try DraftRealProjectShapesTests.draft("staffpromote", staff(""))
        let refused = try #require(guarded.plan.checks.first { $0.name == name }, "\(guarded.yaml)")
        #expect(refused.expectation.rowCount == 0, "\(guarded.yaml)")
        #expect(!guarded.dangerCells.contains { $0.contains("may set their own") || $0.contains("give themselves") },
                "\(guarded.dangerCells)")
        // (Only the reports' own cells cannot be stated: no one is a manager in the setup.)
        #expect(guarded.report.failures.allSatisfy { $0.subject == "public.reports" }, "\(DraftRealProjectShapesTests.failures(guarded))")

        let open = try DraftRealProjectShapesTests.draft("staffpromoteopen", staff("""
            create policy "staff edit own" on public.staff for update to authenticated using (user_id = (select auth.uid()));
            """))
        let promoted = try #require(open.plan.checks.first { $0.name == name }, "\(open.yaml)")
        #expect(promoted.expectation.rowCount == 1, "\(open.yaml)")
        #expect(open.dangerCells.contains {
            $0.hasPrefix("public.staff · ava: a signed-in user may set their own role to 'manager' in another user's public.outlets row")
        }, "\(open.dangerCells)")
        #expect(open.report.failures.allSatisfy { $0.subject == "public.reports" }, "\(DraftRealProjectShapesTests.failures(open))")
    }

    /// A sign-up trigger copying `roles` from the user metadata any client sends into a
    /// roles table that `is_admin()` reads: any user signs up an administrator (a
    /// recycling app; `dev`, `plan draft` and `lint` said nothing). The draft signs a new
    /// user up with `{"roles": ["admin"]}` and marks the admin row it got; a trigger that
    /// gives every new user 'member' keeps the check as the row's absence.
    @Test func signUpMetadataThatGrantsARoleIsChecked() throws {
        func roles(_ body: String) -> String {
            """
            create type public.app_role as enum ('member', 'admin');
            create table public.user_roles (user_id uuid not null references auth.users on delete cascade,
              role public.app_role not null, primary key (user_id, role));
            alter table public.user_roles enable row level security;
            create policy "read own" on public.user_roles for select to authenticated using (user_id = auth.uid());
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = '' as $$
            declare r text;
            begin
              \(body)
              return new;
            end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            create function public.is_admin() returns boolean language sql stable security definer set search_path = '' as $$
              select exists (select 1 from public.user_roles where user_id = auth.uid() and role = 'admin') $$;
            create table public.reports (id bigint generated always as identity primary key,
              owner uuid not null default auth.uid() references auth.users, body text not null default '');
            alter table public.reports enable row level security;
            create policy "own or admin" on public.reports for select to authenticated using (owner = auth.uid() or public.is_admin());
            """
        }
        let name = #"a new user signing up with user_metadata {"roles": ["admin"]} gets role 'admin' in public.user_roles"#
        let copied = try DraftRealProjectShapesTests.draft("signuproles", roles("""
            if jsonb_typeof(new.raw_user_meta_data -> 'roles') = 'array' then
                for r in select jsonb_array_elements_text(new.raw_user_meta_data -> 'roles') loop
                  insert into public.user_roles (user_id, role) values (new.id, r::public.app_role) on conflict do nothing;
                end loop;
              end if;
            """))
        let check = try #require(copied.plan.checks.first { $0.name == name }, "\(copied.yaml)")
        #expect(check.verify?.hasPrefix("select exists (") == true, "\(copied.yaml)")
        #expect(copied.dangerCells.contains { $0.contains("a new user may give themselves role 'admin' in public.user_roles") },
                "\(copied.dangerCells)")
        #expect(copied.verified, "\(DraftRealProjectShapesTests.failures(copied))")

        let fixed = try DraftRealProjectShapesTests.draft("signuprolesfixed", roles("""
            if new.raw_user_meta_data ? 'roles' then raise log 'roles ignored'; end if;
              insert into public.user_roles (user_id, role) values (new.id, 'member');
            """))
        let kept = try #require(fixed.plan.checks.first { $0.name.hasPrefix("a new user signing up with user_metadata") },
                                "\(fixed.yaml)")
        #expect(kept.verify?.hasPrefix("select not exists (") == true, "\(fixed.yaml)")
        // Named for what it then proves (the name of the attempt read as its success).
        #expect(kept.name == #"a new user signing up with user_metadata {"roles": "admin"} does not get role 'admin' in public.user_roles"#,
                "\(fixed.yaml)")
        #expect(!fixed.dangerCells.contains { $0.contains("a new user may give themselves") }, "\(fixed.dangerCells)")
        #expect(fixed.verified, "\(DraftRealProjectShapesTests.failures(fixed))")

        // Sign-ups off in the project's config.toml (an HR app, round thirty-seven): only
        // the admin API makes users, and chooses their metadata, so the same check is a
        // WARN saying what happens once sign-ups are on, not a DANGER.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signupsoff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("supabase"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "[auth]\nenable_signup = false\n".write(
            to: folder.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        let api = try ProjectAPISettings(nearPlan: folder.appendingPathComponent("supabase/access-plan.yml").path)
        #expect(!api.signUpsEnabled)
        let connection = try Connection(try TestCluster.newTwinDatabase("signupsoff").project)
        try connection.execute(unsafeScript: roles("""
            insert into public.user_roles (user_id, role)
                values (new.id, coalesce(new.raw_user_meta_data ->> 'role', 'member')::public.app_role);
            """))
        let off = try PlanDrafter(connection: connection, api: api).draft()
        #expect(off.plan.checks.contains { $0.name.hasPrefix(#"a new user signing up with user_metadata {"role": "admin"} gets"#) },
                "\(off.yaml)")
        #expect(!off.dangerCells.contains { $0.contains("a new user may give themselves") }, "\(off.dangerCells)")
        #expect(off.warningCells.contains {
            $0.hasPrefix("public.user_roles · ava: sign-ups are off ([auth] enable_signup = false in supabase/config.toml)")
                && $0.contains("a new user may give themselves role 'admin' in public.user_roles")
        }, "\(off.warningCells)")
        #expect(off.yaml.contains("  # WARN: sign-ups are off"), "\(off.yaml)")

        // A key as the trigger spells it (`appRole`), not lowercased.
        let camel = try DraftRealProjectShapesTests.draft("signuprolescamel", roles("""
            if new.raw_user_meta_data ->> 'appRole' is not null then
                insert into public.user_roles (user_id, role) values (new.id, (new.raw_user_meta_data ->> 'appRole')::public.app_role);
              end if;
            """))
        #expect(camel.dangerCells.contains { $0.contains(#"by signing up with user_metadata {"appRole": "admin"}"#) },
                "\(camel.dangerCells)\n\(camel.yaml)")
    }

    /// A trigger copying `roles` from the user metadata when a user is updated (`after
    /// update on auth.users`): `supabase.auth.updateUser({ data: { roles: ["admin"] } })`
    /// makes any signed-in user an administrator, and only the sign-up was checked ("no
    /// dangers found", a recycling app). The draft rewrites ava's metadata as Supabase
    /// Auth merges it and marks the admin row she got; the check's line in a plan-less
    /// run says it holds, where it said "as expected (1 rows)".
    @Test func userMetadataAnUpdateTriggerCopiesIsChecked() throws {
        let schema = """
            create type public.app_role as enum ('member', 'admin');
            create table public.user_roles (id bigint generated always as identity primary key,
              user_id uuid not null references auth.users on delete cascade, role public.app_role not null, unique (user_id, role));
            alter table public.user_roles enable row level security;
            create policy "read own" on public.user_roles for select to authenticated using (user_id = auth.uid());
            create function public.handle_updated_user() returns trigger language plpgsql security definer set search_path = '' as $$
            declare r text;
            begin
              if jsonb_typeof(new.raw_user_meta_data -> 'roles') = 'array' then
                delete from public.user_roles where user_id = new.id;
                for r in select jsonb_array_elements_text(new.raw_user_meta_data -> 'roles') loop
                  insert into public.user_roles (user_id, role) values (new.id, r::public.app_role) on conflict do nothing;
                end loop;
              end if;
              return new;
            end $$;
            create trigger on_auth_user_updated after update on auth.users for each row execute function public.handle_updated_user();
            create table public.reports (id bigint generated always as identity primary key, body text not null default '');
            alter table public.reports enable row level security;
            create policy "admins read reports" on public.reports for select to authenticated
              using (exists (select 1 from public.user_roles r where r.user_id = auth.uid() and r.role = 'admin'));
            """
        let draft = try DraftRealProjectShapesTests.draft("updateroles", schema)
        let name = #"ava updating their user_metadata with {"roles": ["admin"]} gets role 'admin' in public.user_roles"#
        let check = try #require(draft.plan.checks.first { $0.name == name }, "\(draft.yaml)")
        #expect(check.before?.contains("update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) ||") == true)
        #expect(draft.dangerCells.contains {
            $0.contains(#"a signed-in user may give themselves role 'admin' in public.user_roles by updating their user_metadata"#)
        }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")

        // In a plan-less run, the check's line says it holds.
        let folder = try MigrationFolder(["20250101000000_roles.sql": schema])
        let dev = try withExtendedLifetime(folder) {
            try PgwardenCLI.run(["dev", "--migrations", folder.path], environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
        }
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.all.contains("check: \(name) (as ava): holds (the admin's verify query says so)"), "\(dev.all)")
    }

    /// A quota on the user's own profile that another table's trigger reads to refuse
    /// inserts (`bills`' trigger raises BILL_QUOTA_REACHED when `bills_created >=
    /// bill_quota`), while the owner may update the whole profile: any user lifts their
    /// own limit (a bill-splitting app; nothing was flagged). Checked per column the
    /// guard reads; a column the role may not update makes no check.
    @Test func aLimitAnotherTablesTriggerReadsIsChecked() throws {
        func quota(_ grant: String) -> String {
            """
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade,
              bills_created int not null default 0, bill_quota int default 3, nickname text);
            create table public.bills (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null references auth.users (id));
            alter table public.profiles enable row level security;
            alter table public.bills enable row level security;
            create policy "own profile" on public.profiles for all to authenticated
              using (id = (select auth.uid())) with check (id = (select auth.uid()));
            create policy "own bills" on public.bills for all to authenticated
              using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
            create function public.enforce_quota() returns trigger language plpgsql security definer set search_path = '' as $$
            declare v_created int; v_quota int;
            begin
              select bills_created, bill_quota, nickname into v_created, v_quota from public.profiles where id = new.owner_id;
              if v_quota is not null and v_created >= v_quota then raise exception 'BILL_QUOTA_REACHED'; end if;
              return new;
            end $$;
            create trigger enforce_quota before insert on public.bills for each row execute function public.enforce_quota();
            \(grant)
            """
        }
        let open = try DraftRealProjectShapesTests.draft("quota", quota(""))
        #expect(open.plan.checks.map(\.name).filter { $0.contains("changes") }.sorted() == [
            "ava changes bill_quota in a public.profiles row of ava's", "ava changes bills_created in a public.profiles row of ava's",
        ], "\(open.yaml)")
        #expect(open.dangerCells.contains {
            $0.hasPrefix("public.profiles · ava: a signed-in user may change their own bill_quota, which a trigger on public.bills reads")
        }, "\(open.dangerCells)")
        #expect(open.verified, "\(DraftRealProjectShapesTests.failures(open))")

        let granted = try DraftRealProjectShapesTests.draft("quotagrant", quota("""
            revoke update on public.profiles from authenticated;
            grant update (nickname) on public.profiles to authenticated;
            """))
        #expect(!granted.plan.checks.contains { $0.name.contains("changes") }, "\(granted.plan.checks.map(\.name))")
    }

    /// Credits an RPC spends and raises without (`generate()`: `update profiles set
    /// credits = credits - 1 ... if not found then raise exception 'no credits left'`),
    /// in the user's own row, which their update policy lets them change: "no dangers
    /// found" (an AI app; round thirty-eight). A trigger's and a policy's readers were
    /// counted, not a function users call.
    @Test func creditsAFunctionUsersCallSpendsAreChecked() throws {
        let draft = try DraftRealProjectShapesTests.draft("rpccredits", """
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade,
              display_name text, credits integer not null default 10);
            alter table public.profiles enable row level security;
            create policy "own read" on public.profiles for select using (auth.uid() = id);
            create policy "own update" on public.profiles for update using (auth.uid() = id);
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            create table public.generations (id bigint generated always as identity primary key,
              user_id uuid not null default auth.uid() references auth.users (id), prompt text not null);
            alter table public.generations enable row level security;
            create policy "own" on public.generations for select using (auth.uid() = user_id);
            create function public.generate(p_prompt text) returns bigint language plpgsql security definer set search_path = '' as $$
            declare v_id bigint;
            begin
              update public.profiles set credits = credits - 1 where id = auth.uid() and credits > 0;
              if not found then raise exception 'no credits left'; end if;
              insert into public.generations (user_id, prompt) values (auth.uid(), p_prompt) returning id into v_id;
              return v_id;
            end $$;
            """)
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava changes credits in a public.profiles row of ava's",
            danger: "public.profiles · ava: a signed-in user may change their own credits, which the function generate() reads")
        #expect(!draft.plan.checks.contains { $0.name.contains("display_name") }, "\(draft.yaml)")
    }

    /// A subscription tier on the user's own updatable profile, read only by a definer
    /// function the app's server asks before calling a paid model (`can_use_model(user,
    /// model)`, returning boolean, raising nothing): any user made themselves 'pro', and
    /// "no dangers found" (an AI chat app; round thirty-nine).
    @Test func aTierAFunctionAnswersByIsChecked() throws {
        let draft = try DraftRealProjectShapesTests.draft("tiergate", """
            create table public.profiles (id uuid primary key references auth.users (id),
              subscription_tier text not null default 'free' check (subscription_tier in ('free', 'pro')));
            alter table public.profiles enable row level security;
            create policy "read own" on public.profiles for select using (id = auth.uid());
            create policy "update own" on public.profiles for update using (id = auth.uid()) with check (id = auth.uid());
            create table public.models (id text primary key, pro_only boolean not null default false);
            alter table public.models enable row level security;
            create policy "read" on public.models for select using (true);
            create function public.can_use_model(p_user uuid, p_model text) returns boolean
            language sql stable security definer set search_path = public as $$
              select exists (select 1 from public.models m, public.profiles p
                             where m.id = p_model and p.id = p_user and (not m.pro_only or p.subscription_tier = 'pro')) $$;
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = public as $$
            begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            """)
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava changes subscription_tier in a public.profiles row of ava's",
            danger: "public.profiles · ava: a signed-in user may change their own subscription_tier, "
                + "which the function can_use_model() reads to decide what they may do")
    }

    /// A `verified` flag an admin sets after an ID check, which a lounge's policies read
    /// (`p.verified = true`), on a profile its owner may update whole: any user verified
    /// themselves and posted in the verified-only lounge, and nothing said so (a social
    /// app). A flag named so is a privilege where a policy reads it; unread, it is none.
    @Test func aVerifiedFlagAPolicyReadsIsAPrivilege() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfverify", """
            create table public.profiles (id uuid primary key references auth.users on delete cascade,
              nick text, verified boolean not null default false, email_verified boolean not null default false);
            create table public.lounge_posts (id bigint generated always as identity primary key,
              author_id uuid not null default auth.uid() references public.profiles, body text not null);
            alter table public.profiles enable row level security;
            alter table public.lounge_posts enable row level security;
            create policy "read own" on public.profiles for select to authenticated using (id = auth.uid());
            create policy "edit own" on public.profiles for update to authenticated using (id = auth.uid()) with check (id = auth.uid());
            create policy "verified read" on public.lounge_posts for select to authenticated
              using (exists (select 1 from public.profiles p where p.id = auth.uid() and p.verified = true));
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = ''
              as $$ begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            """)
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava sets verified to true in a public.profiles row of ava's",
            danger: "public.profiles · ava: a signed-in user may set their own verified to true")
        #expect(!draft.plan.checks.contains { $0.name.contains("email_verified") }, "\(draft.yaml)")
    }

    /// A kind that only restricts its holder (`not exists (... p.kind = 'guest' and a
    /// daily count >= 1)`: a guest sends one message a day): setting one's own kind to
    /// 'guest' is no privilege; "may set their own kind to 'guest'" was a made-up DANGER
    /// (a chat app). A value the policies name only under a NOT is none.
    @Test func aValueThatOnlyRestrictsIsNoPrivilege() throws {
        let draft = try DraftRealProjectShapesTests.draft("restrictingkind", """
            create table public.profiles (id uuid primary key references auth.users on delete cascade,
              kind text not null default 'member' check (kind in ('member', 'guest')));
            create table public.messages (id bigint generated always as identity primary key,
              sender_id uuid not null default auth.uid() references public.profiles, body text not null,
              created_at timestamptz not null default now());
            alter table public.profiles enable row level security;
            alter table public.messages enable row level security;
            create policy "read own" on public.profiles for select using (id = auth.uid());
            create policy "edit own" on public.profiles for update to authenticated using (id = auth.uid()) with check (id = auth.uid());
            create policy "read own messages" on public.messages for select using (sender_id = auth.uid());
            create policy "send" on public.messages for insert to authenticated with check (sender_id = auth.uid() and not exists (
              select 1 from public.profiles p where p.id = auth.uid() and p.kind = 'guest'
                and (select count(*) from public.messages m where m.sender_id = p.id and m.created_at > now() - interval '1 day') >= 1));
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = ''
              as $$ begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            """)
        #expect(!draft.plan.checks.contains { $0.name.contains("sets kind") }, "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
    }

    /// A block another table's insert policy reads through a helper (`not
    /// is_user_blocked(auth.uid())`), on a profile its owner may update whole: a blocked
    /// user lifted their own block, and nothing said so (a learning app). A restriction
    /// named so (`is_blocked`) is checked as a limit is; a `banner_url` is not one.
    @Test func aBlockAnotherTablesPolicyReadsIsChecked() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfunblock", """
            create table public.profiles (user_id uuid primary key references auth.users on delete cascade,
              banner_url text, is_blocked boolean not null default false);
            alter table public.profiles enable row level security;
            create policy "read own" on public.profiles for select using (auth.uid() = user_id);
            create policy "insert own" on public.profiles for insert with check (auth.uid() = user_id);
            create policy "update own" on public.profiles for update using (auth.uid() = user_id);
            create function public.is_user_blocked(_user_id uuid) returns boolean language sql stable security definer
              set search_path = '' as $$ select coalesce((select is_blocked from public.profiles where user_id = _user_id), false) $$;
            create table public.posts (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users, body text not null);
            alter table public.posts enable row level security;
            create policy "own posts" on public.posts for select using (user_id = auth.uid());
            create policy "write unless blocked" on public.posts for insert
              with check (user_id = auth.uid() and not public.is_user_blocked(auth.uid()));
            """)
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava changes is_blocked in a public.profiles row of ava's",
            danger: "public.profiles · ava: a signed-in user may change their own is_blocked, which a policy on public.posts reads")
        #expect(!draft.plan.checks.contains { $0.name.contains("banner_url") }, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A free-text role (no enum, no check) that a definer helper compares (`is_admin()`:
    /// `role = 'admin'`), and an update policy of `using (id = auth.uid())` alone: any
    /// user made themselves an administrator, and the draft checked nothing (a staff
    /// directory app, round twenty-nine).
    @Test func aFreeTextRoleThatAHelperComparesIsChecked() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfpromotefreetext", """
            create table public.profiles (
              id uuid primary key references auth.users on delete cascade, name text, role text not null default 'employee',
              status text not null default 'new');
            alter table public.profiles enable row level security;
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = ''
              as $$ begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            create function public.is_admin() returns boolean language sql stable security definer set search_path = '' as $$
              select coalesce((select role = 'admin' and status = 'active' from public.profiles where id = (select auth.uid())), false) $$;
            create policy own_read on public.profiles for select to authenticated using (id = (select auth.uid()));
            create policy admin_read on public.profiles for select to authenticated using (public.is_admin());
            create policy own_update on public.profiles for update to authenticated using (id = (select auth.uid()));
            """)
        // A free-text column not named for a role (`status`) is a state, not a privilege.
        try DraftRealProjectShapesTests.expectTheOneCheckWentThrough(
            draft, check: "ava sets role to 'admin' in a public.profiles row of ava's",
            danger: "public.profiles · ava: a signed-in user may set their own role to 'admin'")
    }

    /// A custom access token hook copying the profile's `app_role` into the token, and
    /// a policy reading the claim (`auth.jwt() ->> 'app_role' = 'admin'`): a user who
    /// may update their own profile gets the claim with their next token. Read from the
    /// column itself it was a DANGER; through the claim nothing was checked (a notes
    /// app's entitlements, round thirty-three). A standard claim (`role`) compared with
    /// a value is the API role, not a column's: `service_role` is no privilege to set.
    @Test func aClaimAHookIssuesFromAColumnIsChecked() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfpromoteclaim", """
            create table public.profiles (
              id uuid primary key references auth.users on delete cascade, display_name text,
              app_role text not null default 'member', role text not null default 'reader');
            alter table public.profiles enable row level security;
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = ''
              as $$ begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            create function public.custom_access_token_hook(event jsonb) returns jsonb language plpgsql stable as $$
            declare r text;
            begin
              select app_role into r from public.profiles where id = (event->>'user_id')::uuid;
              return jsonb_set(event, '{claims,app_role}', to_jsonb(coalesce(r, 'member')));
            end $$;
            create policy own_read on public.profiles for select to authenticated using (id = (select auth.uid()));
            create policy own_update on public.profiles for update to authenticated
              using (id = (select auth.uid())) with check (id = (select auth.uid()));
            create table public.payouts (id bigint generated always as identity primary key,
              owner_id uuid not null default auth.uid() references auth.users (id), amount int not null default 1);
            alter table public.payouts enable row level security;
            create policy own_or_admin on public.payouts for select to authenticated
              using (owner_id = (select auth.uid()) or (auth.jwt() ->> 'app_role') = 'admin');
            create policy service_reads on public.payouts for select to authenticated
              using ((auth.jwt() ->> 'role') = 'service_role');
            """)
        try DraftRealProjectShapesTests.expectTheOneCheckWentThrough(
            draft, check: "ava sets app_role to 'admin' in a public.profiles row of ava's",
            danger: "public.profiles · ava: a signed-in user may set their own app_role to 'admin'")
    }

    /// A trip's `status` that no rule reads, in a table another table's policy reads only
    /// for its `user_id` (drivers' profiles are public when they offer a trip), and
    /// 'verified' named by a vehicles policy: "ava sets status to 'verified'" was a
    /// privilege, six made-up DANGERs on a ride-sharing app. Other tables' rules count
    /// where they read the column itself.
    @Test func aValueAnotherTableNamesIsNoPrivilegeOfAColumnNoRuleReads() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfpromoteothercolumn", """
            create table public.vehicles (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users(id), verification_status text not null default 'pending');
            alter table public.vehicles enable row level security;
            create policy v_sel on public.vehicles for select using (user_id = auth.uid() or verification_status = 'verified');
            create policy v_ins on public.vehicles for insert with check (user_id = auth.uid());
            create type public.trip_status as enum ('pending', 'verified', 'published');
            create table public.trips (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users(id), vehicle_id uuid references public.vehicles(id),
              status public.trip_status not null default 'pending');
            alter table public.trips enable row level security;
            create policy t_all on public.trips for all using (user_id = auth.uid()) with check (user_id = auth.uid());
            create table public.profiles (user_id uuid primary key references auth.users(id), name text);
            alter table public.profiles enable row level security;
            create policy p_sel on public.profiles for select
              using (user_id = auth.uid() or exists (select 1 from public.trips t where t.user_id = profiles.user_id));
            """)
        let names = draft.plan.checks.map(\.name)
        #expect(!names.contains { $0.contains("status to 'verified'") || $0.contains("with status 'verified'") }, "\(names)")
        #expect(!draft.dangerCells.contains { $0.contains("status 'verified'") }, "\(draft.dangerCells)")
    }

    /// A tournament's default state (`status t_status default 'setup'`), which opens its
    /// registration in another table's policy: the only value the rules name is the one
    /// every tournament starts with, and "may give themselves status 'setup', a
    /// privilege" was a made-up DANGER (a tournaments app). A value everyone holds anyway
    /// is no privilege to gain.
    @Test func theDefaultValueIsNoPrivilegeToGain() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfpromotedefault", """
            create type public.t_status as enum ('setup', 'active', 'completed');
            create table public.tournaments (id uuid primary key default gen_random_uuid(),
              created_by uuid not null references auth.users (id), name text not null default 't',
              status public.t_status default 'setup');
            create table public.entrants (id uuid primary key default gen_random_uuid(),
              tournament_id uuid not null references public.tournaments (id) on delete cascade,
              user_id uuid not null references auth.users (id), unique (tournament_id, user_id));
            alter table public.tournaments enable row level security;
            alter table public.entrants enable row level security;
            create policy t_read on public.tournaments for select using (true);
            create policy t_add on public.tournaments for insert with check (auth.uid() = created_by);
            create policy t_edit on public.tournaments for update using (auth.uid() = created_by);
            create policy e_join on public.entrants for insert with check (
              auth.uid() = user_id and exists (select 1 from public.tournaments t where t.id = tournament_id and t.status = 'setup'));
            create policy e_director on public.entrants for all using (
              exists (select 1 from public.tournaments t where t.id = tournament_id and t.created_by = auth.uid()));
            """)
        #expect(!draft.plan.checks.contains { $0.name.contains("status") }, "\(draft.plan.checks.map(\.name))")
        #expect(!draft.dangerCells.contains { $0.contains("status 'setup'") }, "\(draft.dangerCells)")
    }

    /// A listing everyone sees once an admin has verified it (`verification_status =
    /// 'verified'` in the select policy), while the owner's own update policy leaves the
    /// column open: any user approved their own listing, and nothing was flagged (a
    /// ride-sharing app's vehicles). A review status a policy compares is a privilege,
    /// and the update aims at one own row not holding it yet (the setup's shown row is
    /// already verified: two rows updated, and the check was dropped).
    @Test func aReviewStatusAPolicyComparesIsChecked() throws {
        let draft = try DraftRealProjectShapesTests.draft("selfpromotereview", """
            create table public.listings (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users(id), title text,
              verification_status text not null default 'pending' check (verification_status in ('pending', 'verified', 'rejected')));
            alter table public.listings enable row level security;
            create policy l_sel on public.listings for select using (user_id = auth.uid() or verification_status = 'verified');
            create policy l_ins on public.listings for insert with check (user_id = auth.uid());
            create policy l_upd on public.listings for update using (user_id = auth.uid()) with check (user_id = auth.uid());
            """)
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava sets verification_status to 'verified' in a public.listings row of ava's",
            danger: "public.listings · ava: a signed-in user may set their own verification_status to 'verified'")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Any user may insert themselves as a team's owner as far as the policy goes
    /// (`(role = 'owner' and user_id = auth.uid()) or ...`); only a partial unique index,
    /// one owner per team, refuses it (23505). Both checks were dropped and the draft said
    /// nothing, so no plan noticed if the index went (a team board; round thirty-nine).
    /// They are kept, expecting 23505; without the index both go through, DANGERs.
    @Test func aUniqueIndexRefusingAJoinIsKeptAsTheRefusal() throws {
        let schema = { (index: String) in """
            create table public.teams (id uuid primary key default gen_random_uuid(), owner_id uuid not null references auth.users (id));
            create table public.team_members (team_id uuid not null references public.teams (id) on delete cascade,
              user_id uuid not null references auth.users (id) on delete cascade,
              role text not null check (role in ('owner', 'member')), primary key (team_id, user_id));
            \(index)
            create function public.is_member(t uuid) returns boolean language sql stable security definer set search_path = ''
              as $$ select exists (select 1 from public.team_members m where m.team_id = t and m.user_id = auth.uid()) $$;
            create function public.is_owner(t uuid) returns boolean language sql stable security definer set search_path = ''
              as $$ select exists (select 1 from public.team_members m where m.team_id = t and m.user_id = auth.uid() and m.role = 'owner') $$;
            create table public.notes (id uuid primary key default gen_random_uuid(),
              team_id uuid not null references public.teams (id) on delete cascade, body text not null);
            alter table public.teams enable row level security;
            alter table public.team_members enable row level security;
            alter table public.notes enable row level security;
            create policy "read" on public.teams for select to authenticated using (public.is_member(id));
            create policy "add" on public.teams for insert to authenticated with check (owner_id = auth.uid());
            create policy "read" on public.team_members for select to authenticated using (public.is_member(team_id));
            create policy "add" on public.team_members for insert to authenticated
              with check ((role = 'owner' and user_id = auth.uid()) or (role = 'member' and public.is_owner(team_id)));
            create policy "read" on public.notes for select to authenticated using (public.is_member(team_id));
            """ }
        let guarded = try DraftRealProjectShapesTests.draft("oneowner", schema(
            "create unique index one_owner on public.team_members (team_id) where role = 'owner';"))
        let names = ["ava joins a public.teams row of ben's through public.team_members",
                     "ava inserts a public.team_members row of ava's in a public.teams row of ben's with role 'owner'"]
        for name in names {
            let check = try #require(guarded.plan.checks.first { $0.name == name }, "\(guarded.plan.checks.map(\.name))")
            #expect(check.expectation.sqlState == "23505", "\(guarded.yaml)")
        }
        #expect(guarded.verified, "\(DraftRealProjectShapesTests.failures(guarded))")
        let open = try DraftRealProjectShapesTests.draft("oneownerdropped", schema(""))
        for name in names {
            #expect(open.plan.checks.first { $0.name == name }?.expectation.rowCount == 1, "\(open.yaml)")
        }
    }

    /// A trigger that puts the role back without a word (`new.role := old.role` for a
    /// user who is no admin): the update counted one row, changed nothing, and "may set
    /// their own role to 'admin'" was a made-up DANGER (a classes app; round
    /// thirty-nine). The check proves the value changed; where it did not, it is kept
    /// expecting it unchanged. So for a grade a trigger pins.
    @Test func aTriggerPuttingTheValueBackIsNoPromotion() throws {
        let schema = { (trigger: String) in """
            create type public.user_role as enum ('student', 'admin');
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade,
              role public.user_role not null default 'student');
            alter table public.profiles enable row level security;
            create function public.is_admin() returns boolean language sql stable security definer set search_path = public
              as $$ select exists (select 1 from public.profiles where id = auth.uid() and role = 'admin') $$;
            create policy "read" on public.profiles for select using (id = auth.uid() or public.is_admin());
            create policy "update" on public.profiles for update using (id = auth.uid()) with check (id = auth.uid());
            create function public.on_signup() returns trigger language plpgsql security definer set search_path = public as $$
            begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            \(trigger)
            """ }
        let draft = try DraftRealProjectShapesTests.draft("pinnedrole", schema("""
            create function public.pin_role() returns trigger language plpgsql security definer set search_path = public as $$
            begin
              if auth.uid() is not null and new.role is distinct from old.role and not public.is_admin() then
                new.role := old.role;
              end if;
              return new;
            end $$;
            create trigger pin_role before update on public.profiles for each row execute function public.pin_role();
            """))
        #expect(!draft.dangerCells.contains { $0.contains("role") }, "\(draft.dangerCells)")
        let check = try #require(draft.plan.checks.first {
            $0.name == "ava sets role to 'admin' in a public.profiles row of ava's, which keeps its role as it was"
        }, "\(draft.plan.checks.map(\.name))")
        #expect(check.expectation.rowCount == 1 && check.verify?.contains("= current_setting('pgwarden.held_values')") == true,
                "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")

        let open = try DraftRealProjectShapesTests.draft("unpinnedrole", schema(""))
        try DraftRealProjectShapesTests.expectWentThrough(
            open, check: "ava sets role to 'admin' in a public.profiles row of ava's",
            danger: "public.profiles · ava: a signed-in user may set their own role to 'admin'")
        #expect(open.verified, "\(DraftRealProjectShapesTests.failures(open))")
    }
}
