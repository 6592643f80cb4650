import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// What lint's probes count as a consequence: a security definer helper that answers
/// anon `false` hands it no data, but its made-up argument proves it harmless no more
/// than dangerous (one call, not the same call twice), while an update
/// policy that lets every row through is proven even when the table's first column is
/// a GENERATED ALWAYS identity (setting it is refused, 428C9, which hid the policy).
@Suite struct LintProbeValueTests {
    static let migrations = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/HelperFunctions/migrations")

    @Test func aHelperThatAnswersFalseIsNotProvedHarmlessAndAnAlwaysTrueUpdateIsProven() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let report = try Linter(connection: connection).run(migrations: Self.migrations)
        let helper = try report.anonCall("public.is_course_owner(uuid)")
        #expect(!helper.isDanger, "\(helper.consequence?.evidence ?? [])")
        // Its argument was made up: that it answered false proves nothing either way.
        #expect(helper.consequence?.verdict == .notProbed)
        // (Then with a course the body picks by the argument: `where id = course_id`.)
        #expect(helper.consequence?.evidence == ["anon called public.is_course_owner(ava's id): succeeded, returned false or null, changed nothing",
                                                 "anon called public.is_course_owner(a public.courses row): succeeded, returned false or null, changed nothing",
                                                 "the call's arguments were made up: that it changed nothing may only mean they matched no row"])
        let update = try #require(report.findings.first { $0.rule.rawValue == "rls_policy_always_true" && $0.subject == "public.items" })
        #expect(update.isDanger, "\(update.consequence?.evidence ?? [])")
        #expect(update.consequence?.evidence.contains { $0.contains("updated 2 rows of public.items") } == true)
    }

    /// The plan-less report flags the helper as lint does, a WARN (Supabase's advisor
    /// flags it at that level too; round twenty-nine: dev said DANGER where lint said
    /// WARN), and shows in it what anon's call did.
    @Test func thePlanlessReportShowsTheCallInTheWarning() throws {
        let connection = try ElectricRide.database(migrations: Self.migrations, seeded: false)
        let report = ObservedAccessReport(try PlanDrafter(connection: connection).draft(), planFile: "plan.yml")
        #expect(!report.dangerLines.contains { $0.hasPrefix("DANGER public.is_course_owner(uuid)") }, "\(report.dangerLines)")
        let lines = report.linesAfterMatrix(sayingNoDangers: true)
        #expect(lines.contains("WARN public.is_course_owner(uuid) · anon: anon (no sign-in) may execute this security definer "
            + "function; pgwarden lint's call as anon could not show what it does (anon called public.is_course_owner(ava's id): "
            + "succeeded, returned false or null, changed nothing): review it (pgwarden lint says how to take it from anon)"),
                "\(lines)")
    }

    /// An insert policy that lets every row through, on a table whose row needs a
    /// parent that does not exist yet: the probe's insert is refused by the NOT NULL
    /// constraint (23502). PostgreSQL checks an inserted row against the policies before
    /// its constraints (`with check (false)` and a NULL give 42501, not 23502), so the
    /// 23502 says the policy let the row in: proven, as `dev`'s insert cell says (lint
    /// said "not probed", "the policy itself was not tried": a menu app's tables).
    @Test func anAlwaysTrueInsertThatThenBreaksAConstraintPassedThePolicy() throws {
        let (report, _) = try lint("""
            create table public.companies (id uuid primary key default gen_random_uuid(), name text);
            alter table public.companies enable row level security;
            create table public.campaigns (
              id uuid primary key default gen_random_uuid(),
              company_id uuid not null references public.companies (id),
              name text
            );
            alter table public.campaigns enable row level security;
            create policy "anyone signed in inserts" on public.campaigns for insert to authenticated with check (true);

            """)
        let insert = try #require(report.findings.first { $0.rule.rawValue == "rls_policy_always_true" && $0.subject == "public.campaigns" })
        let evidence = insert.consequence?.evidence ?? []
        #expect(insert.consequence?.verdict == .proven, "\(evidence)")
        #expect(evidence.contains { $0.contains("passed the policy, then broke a constraint") && $0.contains("23502") }, "\(evidence)")
    }

    /// A column grant (`grant update (caption)`) and an update policy that lets every row
    /// through: the probe set the first column, which the grant does not cover, and its
    /// 42501 made the policy HARMLESS while ava could rewrite every caption. An update
    /// policy over a table that has no row (lint's setup row broke its check) proves
    /// nothing by updating 0 rows: not probed, never harmless.
    @Test func anAlwaysTrueUpdateIsProbedThroughTheColumnTheGrantCovers() throws {
        let (report, _) = try lint(DraftRealProjectShapesTests.cardsWithACaptionGrant + """

            insert into public.cards (holder, caption) select id, 'mine' from auth.users;
            create table public.pins (id bigint generated always as identity primary key, at text not null check (length(at) > 300));
            alter table public.pins enable row level security;
            create policy "pins edit" on public.pins for update to authenticated using (true);
            create policy "pins remove" on public.pins for delete to authenticated using (true);

            """)
        let cards = try #require(report.findings.first { $0.rule.rawValue == "rls_policy_always_true" && $0.subject == "public.cards" })
        #expect(cards.consequence?.verdict == .proven, "\(cards.consequence?.evidence ?? [])")
        #expect(cards.isDanger)
        let pins = report.findings.filter { $0.rule.rawValue == "rls_policy_always_true" && $0.subject == "public.pins" }
        #expect(!pins.isEmpty)
        for finding in pins {
            #expect(finding.consequence?.verdict == .notProbed, "\(finding.consequence?.evidence ?? [])")
            #expect(finding.consequence?.evidence.last?.contains("has no row (as the admin too)") == true, "\(finding.consequence?.evidence ?? [])")
        }
    }

    /// What a call as anon proves. A guard that raises 42501 for every call: harmless
    /// for anon. A check that raises P0001 for 1, then lets NULL through to a delete
    /// that matches nothing (`id >= NULL`): nothing was learnt either way, so "not
    /// probed", never "harmless", keeping its rule's level. A function that deletes the
    /// account whose id it is given: anon passes a signed-in user's id (as anyone who has
    /// seen one can), and the deleted account proves the danger; with NULL it would have
    /// looked harmless.
    @Test func whatACallAsAnonProvesAndWhatItDoesNot() throws {
        let (report, connection) = try lint("""
            create table public.notes (id int primary key, body text);
            alter table public.notes enable row level security;
            insert into public.notes values (1, 'one'), (2, 'two');
            create function public.guarded_purge() returns void language plpgsql security definer set search_path = ''
            as $$ begin
              if auth.uid() is null then raise exception 'sign in first' using errcode = '42501'; end if;
              delete from public.notes;
            end $$;
            create function public.purge_from(first_id int) returns void language plpgsql security definer set search_path = ''
            as $$ begin
              if first_id < 100 then raise exception 'first_id must be at least 100'; end if;
              delete from public.notes where id >= first_id;
            end $$;
            create function public.delete_account(target uuid) returns void language sql security definer set search_path = ''
            as $$ delete from auth.users where id = target $$;

            """)
        func finding(_ subject: String) throws -> LintFinding {
            try #require(report.findings.first {
                $0.rule.rawValue == "anon_security_definer_function_executable" && $0.subject == subject
            }, "\(report.findings.map(\.subject))")
        }
        let guarded = try finding("public.guarded_purge()")
        #expect(guarded.consequence?.verdict == .harmless, "\(guarded.consequence?.evidence ?? [])")
        let purge = try finding("public.purge_from(integer)")
        let evidence = purge.consequence?.evidence ?? []
        #expect(purge.consequence?.verdict == .notProbed, "\(evidence)")
        #expect(purge.status != "harmless", "\(evidence)")
        #expect(evidence == [
            "anon called public.purge_from(1): failed, P0001 first_id must be at least 100",
            "anon called public.purge_from(null): succeeded, changed nothing",
            "the call's arguments were made up: that it changed nothing may only mean they matched no row",
        ], "\(evidence)")
        let delete = try finding("public.delete_account(uuid)")
        #expect(delete.consequence?.verdict == .proven, "\(delete.consequence?.evidence ?? [])")
        #expect(delete.isDanger)
        #expect(delete.consequence?.evidence.first?.hasPrefix("anon called public.delete_account(ava's id): succeeded, ") == true,
                "\(delete.consequence?.evidence ?? [])")
        #expect(delete.consequence?.evidence.first?.contains("deleted 1 row of auth.users") == true,
                "\(delete.consequence?.evidence ?? [])")
        #expect(try connection.query("select count(*) from public.notes").scalar == "2")
    }

    /// Two overloads of one name, each with a defaulted parameter: a call leaving the
    /// defaults out matches both (42725 "function is not unique") and proved nothing, so
    /// a function anyone may call to delete every row stayed a WARN. Now every parameter
    /// of an overloaded name is given, as a client must give them to reach that one
    /// (a community site's paginated RPCs).
    @Test func anOverloadedFunctionIsCalledWithEveryParameter() throws {
        let (report, connection) = try lint("""
            create table public.notes (id int generated always as identity primary key, body text);
            alter table public.notes enable row level security;
            insert into public.notes (body) values ('a'), ('b');
            create function public.wipe(p_limit int default 10) returns void
              language sql security definer set search_path = '' as $$ delete from public.notes $$;
            create function public.wipe(p_limit int default 10, p_tag text default null) returns void
              language sql security definer set search_path = '' as $$ delete from public.notes $$;

            """)
        let wipe = try report.anonCall("public.wipe(integer, text)")
        #expect(wipe.isDanger, "\(wipe.consequence?.evidence ?? [])")
        #expect(wipe.consequence?.evidence == ["anon called public.wipe(1, 'pgwarden'): succeeded, deleted 2 rows of public.notes"])
        #expect(try connection.query("select count(*)::text from public.notes").scalar == "2")
    }

    /// A definer view over an owner-only table, with no rows yet: anon and a signed-in
    /// user both read 0 rows, which lint called HARMLESS, though the view shows every
    /// user's rows as soon as there are some (a golf-draft app). The empty tables a
    /// definer view reads get the personas' rows first (as `plan draft`'s setup makes
    /// them: without, the probe said "no rows" under a matrix showing anon reading
    /// every row through the view); a view that still shows none proves nothing: the
    /// finding keeps its rule's level, and says why.
    @Test func aDefinerViewWithNoRowsIsNotHarmless() throws {
        let (report, _) = try lint("""
            create table public.wishes (id bigint generated always as identity primary key,
              user_id uuid not null default auth.uid() references auth.users, body text not null);
            alter table public.wishes enable row level security;
            create policy "own wishes" on public.wishes for all to authenticated using (user_id = auth.uid());
            create view public.wish_counts as select user_id, count(*) as n from public.wishes group by user_id;
            create view public.granted_wishes as select id from public.wishes where body = 'granted';
            """)
        let view = try #require(report.findings.first { $0.rule == .securityDefinerView && $0.subject == "public.wish_counts" })
        #expect(view.consequence?.verdict == .proven, "\(view.consequence?.evidence ?? [])")
        #expect(view.consequence?.evidence.first == "anon reads 2 rows of public.wish_counts; directly, of public.wishes: 0 rows",
                "\(view.consequence?.evidence ?? [])")
        let empty = try #require(report.findings.first { $0.rule == .securityDefinerView && $0.subject == "public.granted_wishes" })
        #expect(empty.consequence?.verdict == .notProbed, "\(empty.consequence?.evidence ?? [])")
        #expect(empty.isDanger)
        #expect(empty.consequence?.evidence.last == "public.granted_wishes has no rows (as the admin too): the reads show nothing either way")
    }

    /// A claims helper that trusts every session but PostgREST's login (`if session_user
    /// = 'authenticator' then <check the claims> else return true`), called by a security
    /// definer function anon may execute: the probe runs as this run's login, so the
    /// guard let anon through and lint called the write "proven", while a request (as
    /// authenticator) is refused (a word-game app's set_claim). Such a call now proves
    /// nothing: not probed, naming the function that reads session_user.
    @Test func aCallThroughASessionUserGuardIsNotProven() throws {
        let (report, _) = try lint("""
            create function public.may_edit_claims() returns boolean language plpgsql as $$
            begin
              if session_user = 'authenticator' then
                return coalesce((current_setting('request.jwt.claims', true)::jsonb -> 'app_metadata' ->> 'claims_admin')::boolean, false);
              end if;
              return true;
            end $$;
            create function public.put_claim(target uuid, k text, v jsonb) returns text
            language plpgsql security definer set search_path = public as $$
            begin
              if not public.may_edit_claims() then return 'denied'; end if;
              update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}') || jsonb_build_object(k, v) where id = target;
              return 'done';
            end $$;

            """)
        let call = try #require(report.findings.first {
            $0.rule.rawValue == "anon_security_definer_function_executable" && $0.subject.hasPrefix("public.put_claim(")
        })
        let evidence = call.consequence?.evidence ?? []
        #expect(call.consequence?.verdict == .notProbed, "\(evidence)")
        #expect(evidence.last == "public.may_edit_claims() reads session_user, which is authenticator in a PostgREST request "
            + "but this run's own login here: the call may have taken a branch no request takes", "\(evidence)")
    }

    /// A security definer function anon may call that returns a random invite code: the
    /// call "returned data to anon", so lint proved a DANGER, though the value was made
    /// without reading anything (an AI-prompt app's gen_invite_code). Data is what a call
    /// read with the owner's rights: a call that scanned no table proves nothing so.
    @Test func aValueMadeWithoutReadingATableIsNoData() throws {
        let (report, _) = try lint("""
            create function public.new_invite_code(len integer default 8) returns text
            language sql volatile security definer set search_path = '' as $$
              select substr(md5(random()::text), 1, len)
            $$;

            """)
        let call = try #require(report.findings.first {
            $0.rule.rawValue == "anon_security_definer_function_executable" && $0.subject.hasPrefix("public.new_invite_code(")
        })
        let evidence = call.consequence?.evidence ?? []
        #expect(call.consequence?.verdict == .harmless, "\(evidence)")
        #expect(evidence.first?.hasSuffix("succeeded, returned 1 row (read no table), changed nothing") == true, "\(evidence)")
    }

    /// A sign-up page's code check answers `{"valid": false}` for a code there is not:
    /// the call looked the code up and read no row, so its answer is no one's data. It
    /// was a proven DANGER ("returned 1 row"), with the advice to revoke what sign-up
    /// needs (a learning app's `verify_invitation_code`).
    @Test func aFixedAnswerForAKeyThereIsNotIsNoData() throws {
        let (report, _) = try lint("""
            create table public.invites (code text primary key, course text not null);
            alter table public.invites enable row level security;
            insert into public.invites (code, course) values ('WELCOME-1', 'algebra');
            create function public.check_invite(p_code text) returns jsonb
            language sql stable security definer set search_path = '' as $$
              select coalesce((select jsonb_build_object('valid', true, 'course', i.course) from public.invites i where i.code = p_code),
                              jsonb_build_object('valid', false))
            $$;
            """)
        let call = try report.anonCall("public.check_invite(text)")
        #expect(!call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.first?.hasSuffix("succeeded, returned 1 row (read no row), changed nothing") == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// An admins-only key RPC answering every other caller `{"success": false, "error":
    /// ...}`: called with a made-up key it read no row, with a real organisation's it read
    /// one, and both returned that answer; the second was "returned 1 row", a proven
    /// DANGER (an agent platform's `create_organization_key`; round thirty-nine). An answer
    /// a call that read no row gave too is made of no row.
    @Test func anAnswerACallOfNoRowGaveTooIsNoData() throws {
        let (report, _) = try lint("""
            create table public.orgs (id bigint generated by default as identity primary key,
              uuid uuid not null unique default gen_random_uuid(), name text not null);
            create table public.org_users (org_id bigint not null references public.orgs (id),
              user_id uuid not null references auth.users (id), role text not null, primary key (org_id, user_id));
            create table public.org_keys (id bigint generated by default as identity primary key,
              org_id bigint not null references public.orgs (id), key text not null);
            alter table public.orgs enable row level security;
            alter table public.org_users enable row level security;
            alter table public.org_keys enable row level security;
            create function public.is_org_admin(o bigint) returns boolean language sql stable security definer set search_path = ''
              as $$ select exists (select 1 from public.org_users where org_id = o and user_id = auth.uid() and role = 'ADMIN') $$;
            create function public.create_org_key(arg_org uuid, arg_key text) returns jsonb
            language plpgsql security definer set search_path = '' as $$
            declare v_org bigint;
            begin
              select o.id into v_org from public.orgs o where o.uuid = arg_org;
              if not public.is_org_admin(v_org) then
                return jsonb_build_object('success', false, 'error', 'user is not an organization admin');
              end if;
              insert into public.org_keys (org_id, key) values (v_org, arg_key);
              return jsonb_build_object('success', true);
            end $$;
            insert into public.orgs (name) values ('Acme');
            """)
        let call = try report.anonCall("public.create_org_key(uuid, text)")
        #expect(!call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.hasSuffix("an answer made of no row's data") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// A rating summary anon may call (`get_rating_summary(p_provider uuid)`), called with
    /// ava's id, who has no reviews: it returned `{"count": 0}` after a sequential scan
    /// read another provider's reviews, so it "handed over" data (DANGER), while an index
    /// scan read none (WARN): the same project said one or the other from run to run (a
    /// services marketplace, round forty-one). The same call with a made-up id returns
    /// the same answer: made of no row's data.
    @Test func anAnswerAMadeUpIDGetsTooIsNoData() throws {
        let (report, _) = try lint("""
            create table public.reviews (id bigint generated always as identity primary key,
              provider_id uuid not null, rating int not null);
            alter table public.reviews enable row level security;
            insert into public.reviews (provider_id, rating) select gen_random_uuid(), 4 from generate_series(1, 3);
            create function public.get_rating_summary(p_provider uuid) returns jsonb
            language sql stable security definer set search_path = '' as $$
              select jsonb_build_object('count', count(*), 'average', avg(rating)) from public.reviews where provider_id = p_provider
            $$;
            """)
        let call = try report.anonCall("public.get_rating_summary(uuid)")
        #expect(!call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.hasSuffix("with a made-up id in place of each id it returned the same: an answer made of no row's data") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// Definer functions anon may call whose made-up arguments matched nothing: a coupon
    /// code 'pgwarden', ava's id where a coupon's is wanted. Both "changed nothing", and
    /// lint called them HARMLESS, though anon raises a real coupon's uses with its code or
    /// id (a loyalty app's redemption counter, a quest app's badges). Not probed now. A
    /// trigger function (0A000 when called) is harmless: no request can call one.
    @Test func aCallWithMadeUpArgumentsThatChangedNothingProvesNothing() throws {
        let (report, _) = try lint("""
            create table public.coupons (id uuid primary key default gen_random_uuid(), code text unique, uses int not null default 0);
            alter table public.coupons enable row level security;
            insert into public.coupons (code) values ('WELCOME');
            create function public.use_coupon(c text) returns boolean language sql security definer set search_path = '' as $$
              update public.coupons set uses = uses + 1 where code = c returning true
            $$;
            create function public.on_signup() returns trigger language plpgsql security definer set search_path = '' as $$
            begin return new; end $$;

            """)
        func finding(_ subject: String) throws -> LintFinding {
            try report.anonCall(subject)
        }
        let use = try finding("public.use_coupon(text)")
        #expect(use.consequence?.verdict == .notProbed, "\(use.consequence?.evidence ?? [])")
        #expect(use.consequence?.evidence.last == "the call's arguments were made up: that it changed nothing may only mean they matched no row")
        let trigger = try finding("public.on_signup()")
        #expect(trigger.consequence?.verdict == .harmless, "\(trigger.consequence?.evidence ?? [])")
        #expect(trigger.consequence?.evidence.last?.hasSuffix("a trigger function no request can call") == true)
    }

    /// Lints a database made by one migration (`sql`, its text), in a `MigrationFolder`
    /// that is removed afterwards: the report, and the database's connection.
    /// An update policy that checks the old row only (`using (owner_id = auth.uid())
    /// with check (true)`): the owner may give the row to any other user, which leaves a
    /// row of ben's that ben never wrote, as an insert as ben would. Lint's probes tried
    /// ben's rows only (none updated) and called it HARMLESS; the plan-less report put
    /// those write probes under the cell's DANGER about reading. Giving an own row away
    /// is now probed (an update without RETURNING, which would ask the read policies
    /// about ben's row too), and a relation cell shows no lint evidence.
    @Test func anUpdateWhoseCheckIsTrueLetsTheOwnerGiveTheRowAway() throws {
        let schema = """
            create table public.boxes (
              id uuid primary key default gen_random_uuid(),
              owner_id uuid not null references auth.users default auth.uid());
            alter table public.boxes enable row level security;
            create policy "read" on public.boxes for select to authenticated using (true);
            create policy "add" on public.boxes for insert to authenticated with check (owner_id = auth.uid());
            create policy "give" on public.boxes for update to authenticated using (owner_id = auth.uid()) with check (true);

            """
        let connection = try Connection(try TestCluster.newTwinDatabase("givebox").project)
        try connection.execute(unsafeScript: schema)
        let draft = try PlanDrafter(connection: connection).draft()
        let give = try #require(draft.findings.findings.first { $0.rule.rawValue == "rls_policy_always_true" && $0.subject == "public.boxes" })
        #expect(give.isDanger, "\(give.consequence?.evidence ?? [])")
        #expect(give.consequence?.evidence.contains("ava gave 1 own row of public.boxes to ben (owner_id set to ben's id)") == true,
                "\(give.consequence?.evidence ?? [])")
        let lines = ObservedAccessReport(draft, planFile: "plan.yml").dangerLines
        let cell = try #require(lines.firstIndex { $0.hasPrefix("DANGER public.boxes · ava:") }, "\(lines)")
        #expect(!lines[cell + 1].hasPrefix("  probe:"), "\(lines)")
        var observed = MatrixReport(draft.report)
        observed.isObservation = true
        #expect(observed.summary.contains("2 could not be stated as a scope"), "\(observed.summary)")
    }

    /// Two shapes from a facilitation app. A sign-up helper anon may call that answers
    /// `not exists (...)` over a table anon reads anyway: its `true` counted as "returned
    /// 1 row" of data, a DANGER, where the same helper written with `exists` answered
    /// false and stayed a WARN. A boolean is an answer, not data: the made-up argument
    /// decided it, so it is not probed either way. And a function without arguments
    /// whose body closes every user's overdue tasks, over a table with no task: "changed
    /// nothing" made it HARMLESS; with no row to change it proves nothing.
    @Test func aBooleanAnswerIsNoDataAndATableWithNoRowsProvesNothing() throws {
        let (report, _) = try lint("""
            create table public.handles (user_id uuid primary key references auth.users (id), handle text not null unique);
            alter table public.handles enable row level security;
            create policy "anyone reads" on public.handles for select using (true);
            create function public.handle_is_free(p text) returns boolean language plpgsql security definer
              set search_path = public as $$ begin return not exists (select 1 from handles where handle = p); end $$;
            create table public.tasks (
              id uuid primary key default gen_random_uuid(), owner uuid not null references auth.users (id),
              due timestamptz not null, status text not null default 'open');
            alter table public.tasks enable row level security;
            create policy "own tasks" on public.tasks for all to authenticated using (owner = auth.uid());
            create function public.close_overdue() returns void language plpgsql security definer
              set search_path = public as $$ begin update tasks set status = 'closed' where due < now() and status = 'open'; end $$;

            """)
        func finding(_ subject: String) throws -> LintFinding {
            try report.anonCall(subject)
        }
        let free = try finding("public.handle_is_free(text)")
        #expect(!free.isDanger, "\(free.consequence?.evidence ?? [])")
        #expect(free.consequence?.verdict == .notProbed)
        #expect(free.consequence?.evidence.first == "anon called public.handle_is_free('pgwarden'): succeeded, returned true, changed nothing",
                "\(free.consequence?.evidence ?? [])")
        let close = try finding("public.close_overdue()")
        #expect(close.consequence?.verdict == .notProbed, "\(close.consequence?.evidence ?? [])")
        #expect(close.consequence?.evidence.last
                    == "public.tasks, which its body updates or deletes from, has no rows (as the admin too): that it changed nothing proves nothing",
                "\(close.consequence?.evidence ?? [])")
    }

    /// A self-service RPC a signed-in user may call (`update profiles ... where id =
    /// auth.uid()`): "updated 1 row of public.profiles", ava's own, made it a DANGER
    /// whose advice (revoke execute from authenticated) breaks the app. A call that left
    /// every other user's rows as they were now proves nothing. A function that writes
    /// the row of the user it is given is called with the other user's id (it was ava's
    /// own, which showed nothing a user may not do) and is proven.
    @Test func aCallThatChangesOnlyTheCallersOwnRowsIsNoConsequence() throws {
        let (report, _) = try lint("""
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade, bio text);
            alter table public.profiles enable row level security;
            create policy "own read" on public.profiles for select to authenticated using (id = auth.uid());
            create policy "own update" on public.profiles for update to authenticated using (id = auth.uid());
            create function public.on_signup() returns trigger language plpgsql security definer set search_path = public
              as $$ begin insert into profiles (id) values (new.id); return new; end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            create function public.set_my_bio(p_bio text default null) returns void language plpgsql security definer
              set search_path = public as $$ begin update profiles set bio = coalesce(p_bio, bio) where id = auth.uid(); end $$;
            create function public.set_bio(target uuid, p_bio text) returns void language plpgsql security definer
              set search_path = public as $$ begin update profiles set bio = p_bio where id = target; end $$;

            """)
        func finding(_ subject: String) throws -> LintFinding {
            try #require(report.findings.first { $0.rule.rawValue == "authenticated_security_definer_function_executable" && $0.subject == subject })
        }
        let mine = try finding("public.set_my_bio(text)")
        #expect(!mine.isDanger, "\(mine.consequence?.evidence ?? [])")
        #expect(mine.consequence?.evidence == [
            "ava called public.set_my_bio(): succeeded, updated 1 row of public.profiles",
            "the call changed only ava's own rows (public.profiles.id): whether it lets ava change what the tables' own policies do not is not probed",
        ])
        let anyones = try finding("public.set_bio(uuid, text)")
        #expect(anyones.isDanger, "\(anyones.consequence?.evidence ?? [])")
        #expect(anyones.consequence?.evidence == ["ava called public.set_bio(ben's id, 'pgwarden'): succeeded, updated 1 row of public.profiles"])
    }

    /// An RPC making a group and the caller's membership in it (the only way a kitchen
    /// is made in a shopping-list app): the group's row names no user, so the call was a
    /// DANGER with the advice to revoke it. A group is its members'. Making one for any
    /// user given is still proven.
    @Test func makingAGroupWithTheCallerAsItsMemberIsNoConsequence() throws {
        let (report, _) = try lint("""
            create table public.kitchens (id uuid primary key default gen_random_uuid(), name text not null);
            create table public.kitchen_members (
              kitchen_id uuid not null references public.kitchens on delete cascade,
              user_id uuid not null references auth.users on delete cascade, primary key (kitchen_id, user_id));
            alter table public.kitchens enable row level security;
            alter table public.kitchen_members enable row level security;
            create policy "own memberships" on public.kitchen_members for select to authenticated using (user_id = (select auth.uid()));
            create policy "members read kitchens" on public.kitchens for select to authenticated
              using (exists (select 1 from public.kitchen_members m where m.kitchen_id = kitchens.id and m.user_id = (select auth.uid())));
            create function public.create_kitchen(p_name text) returns uuid language plpgsql security definer set search_path = '' as $$
            declare k uuid;
            begin
              insert into public.kitchens (name) values (p_name) returning id into k;
              insert into public.kitchen_members (kitchen_id, user_id) values (k, auth.uid());
              return k;
            end $$;
            create function public.create_kitchen_for(p_user_id uuid) returns uuid language plpgsql security definer set search_path = '' as $$
            declare k uuid;
            begin
              insert into public.kitchens (name) values ('theirs') returning id into k;
              insert into public.kitchen_members (kitchen_id, user_id) values (k, p_user_id);
              return k;
            end $$;
            revoke execute on function public.create_kitchen(text), public.create_kitchen_for(uuid) from public, anon;
            grant execute on function public.create_kitchen(text), public.create_kitchen_for(uuid) to authenticated;
            """)
        func finding(_ subject: String) throws -> LintFinding {
            try #require(report.findings.first { $0.rule == .authenticatedSecurityDefinerFunctionExecutable && $0.subject == subject })
        }
        let mine = try finding("public.create_kitchen(text)")
        #expect(!mine.isDanger, "\(mine.consequence?.evidence ?? [])")
        #expect(mine.consequence?.evidence.last?.contains("public.kitchens through public.kitchen_members.user_id") == true,
                "\(mine.consequence?.evidence ?? [])")
        let theirs = try finding("public.create_kitchen_for(uuid)")
        #expect(theirs.isDanger, "\(theirs.consequence?.evidence ?? [])")
    }

    /// "Delete my account" (`delete from auth.users where id = auth.uid()`): the delete
    /// cascades into the user's sessions and their MFA claims, which name no user, so
    /// the call was a DANGER with the advice to revoke it. Those rows are the user's
    /// too. Deleting the account of any user given is still proven.
    @Test func deletingOnesOwnAccountIsNoConsequence() throws {
        let (report, _) = try lint("""
            create function public.delete_my_account() returns void language plpgsql security definer
              set search_path = '' as $$ begin delete from auth.users where id = auth.uid(); end $$;
            create function public.delete_account(p_user_id uuid) returns void language plpgsql security definer
              set search_path = '' as $$ begin delete from auth.users where id = p_user_id; end $$;
            revoke execute on function public.delete_my_account(), public.delete_account(uuid) from public, anon;
            grant execute on function public.delete_my_account(), public.delete_account(uuid) to authenticated;
            """)
        func finding(_ subject: String) throws -> LintFinding {
            try #require(report.findings.first { $0.rule == .authenticatedSecurityDefinerFunctionExecutable && $0.subject == subject })
        }
        let mine = try finding("public.delete_my_account()")
        #expect(!mine.isDanger, "\(mine.consequence?.evidence ?? [])")
        #expect(mine.consequence?.evidence.last?.hasPrefix("the call changed only ava's own rows (")  == true,
                "\(mine.consequence?.evidence ?? [])")
        #expect(mine.consequence?.evidence.first?.contains("deleted 1 row of auth.sessions") == true,
                "\(mine.consequence?.evidence ?? [])")
        let anyones = try finding("public.delete_account(uuid)")
        #expect(anyones.isDanger, "\(anyones.consequence?.evidence ?? [])")
    }

    /// Onboarding making the caller's organisation (`created_by` an app user keyed by a
    /// bigint, `app_users.auth_user_id`), whose insert trigger gives it an API key: the
    /// key, owned only through the organisation and its creator, was "another user's
    /// row", and the call a DANGER whose advice (revoke execute) would remove organisation
    /// making (an agent platform's `create_organization_v2`; round thirty-nine).
    @Test func aRowOwnedThroughItsGrandparentIsTheCallersOwn() throws {
        let (report, _) = try lint("""
            create table public.app_users (id bigint generated by default as identity primary key,
              auth_user_id uuid not null unique references auth.users (id));
            create table public.orgs (id bigint generated by default as identity primary key, name text not null,
              created_by bigint not null references public.app_users (id));
            create table public.org_keys (id bigint generated by default as identity primary key,
              org_id bigint not null references public.orgs (id), secret text not null);
            alter table public.app_users enable row level security;
            alter table public.orgs enable row level security;
            alter table public.org_keys enable row level security;
            create policy "own" on public.app_users for select to authenticated using (auth_user_id = auth.uid());
            create function public.on_signup() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.app_users (auth_user_id) values (new.id); return new; end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            create function public.make_org_key() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.org_keys (org_id, secret) values (new.id, gen_random_uuid()::text); return new; end $$;
            create trigger make_org_key after insert on public.orgs for each row execute function public.make_org_key();
            create function public.create_org(arg_name text) returns bigint language plpgsql security definer set search_path = '' as $$
            declare v bigint;
            begin
              insert into public.orgs (name, created_by)
                values (arg_name, (select id from public.app_users where auth_user_id = auth.uid())) returning id into v;
              return v;
            end $$;
            revoke execute on function public.create_org(text) from public, anon;
            grant execute on function public.create_org(text) to authenticated;
            """)
        let call = try #require(report.findings.first {
            $0.rule == .authenticatedSecurityDefinerFunctionExecutable && $0.subject == "public.create_org(text)"
        })
        #expect(!call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.last?.contains("public.org_keys through public.orgs, public.app_users.auth_user_id") == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// Accepting one's own invitation, addressed to the user's e-mail and made by an
    /// inviter (`invited_by`): the invitation was "another user's row" by its inviter, and
    /// the call a DANGER with the advice to revoke what every invitee needs (an HR app's
    /// `accept_user_invitation`; round thirty-nine). A row addressed to the user's e-mail
    /// is the user's too.
    @Test func acceptingOnesOwnInvitationIsNoConsequence() throws {
        let (report, _) = try lint("""
            create table public.user_roles (user_id uuid references auth.users (id) on delete cascade, role text not null,
              primary key (user_id, role));
            alter table public.user_roles enable row level security;
            create table public.user_invitations (id uuid primary key default gen_random_uuid(), email text not null unique,
              role text not null default 'worker', invited_by uuid references auth.users (id), accepted_at timestamptz);
            alter table public.user_invitations enable row level security;
            insert into public.user_invitations (email) values ('ava.draft@example.com');
            create function public.accept_user_invitation(invite_email text) returns void language plpgsql security definer
              set search_path = '' as $$
            declare invite record;
            begin
              select * into invite from public.user_invitations where email = invite_email;
              if not found then raise exception 'Invalid invitation'; end if;
              if invite.email <> (select email from auth.users where id = auth.uid()) then raise exception 'Email mismatch'; end if;
              insert into public.user_roles (user_id, role) values (auth.uid(), invite.role);
              update public.user_invitations set accepted_at = now() where email = invite_email;
            end $$;
            revoke all on function public.accept_user_invitation(text) from public;
            grant execute on function public.accept_user_invitation(text) to authenticated;
            """)
        let call = try #require(report.findings.first {
            $0.rule == .authenticatedSecurityDefinerFunctionExecutable && $0.subject == "public.accept_user_invitation(text)"
        })
        #expect(!call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.last?.contains("public.user_invitations.invited_by or email") == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// Onboarding that makes a team for the caller and makes the caller its owner: the
    /// team's rules go through its memberships, so `teams` had no owner column, and the
    /// call was a DANGER whose advice (revoke execute) breaks sign-up. Whose a team is,
    /// its `created_by` says. The same function making the team for any user it is
    /// given is still proven.
    @Test func anOnboardingCallMakingRowsNamingTheCallerIsNoConsequence() throws {
        let (report, _) = try lint("""
            create table public.teams (id uuid primary key default gen_random_uuid(), name text not null,
                                       created_by uuid not null references auth.users (id));
            create table public.team_members (team_id uuid references public.teams (id), user_id uuid references auth.users (id),
                                              role text not null, primary key (team_id, user_id));
            alter table public.teams enable row level security;
            alter table public.team_members enable row level security;
            create policy m on public.team_members for select to authenticated using (user_id = (select auth.uid()));
            create policy t on public.teams for select to authenticated
              using (exists (select 1 from public.team_members m where m.team_id = id and m.user_id = (select auth.uid())));
            create function public.create_my_team(p_name text) returns uuid language plpgsql security definer set search_path = '' as $$
            declare v uuid;
            begin
              insert into public.teams (name, created_by) values (p_name, auth.uid()) returning id into v;
              insert into public.team_members (team_id, user_id, role) values (v, auth.uid(), 'owner');
              return v;
            end $$;
            create function public.create_team_for(p_name text, p_user uuid) returns uuid language plpgsql security definer
              set search_path = '' as $$
            declare v uuid;
            begin
              insert into public.teams (name, created_by) values (p_name, p_user) returning id into v;
              insert into public.team_members (team_id, user_id, role) values (v, p_user, 'owner');
              return v;
            end $$;
            """)
        func finding(_ subject: String) throws -> LintFinding {
            try #require(report.findings.first { $0.rule.rawValue == "authenticated_security_definer_function_executable" && $0.subject == subject })
        }
        let mine = try finding("public.create_my_team(text)")
        #expect(!mine.isDanger, "\(mine.consequence?.evidence ?? [])")
        #expect(mine.consequence?.evidence.last?.hasPrefix("the call changed only ava's own rows (public.team_members.user_id, public.teams.created_by)") == true,
                "\(mine.consequence?.evidence ?? [])")
        let anyones = try finding("public.create_team_for(text, uuid)")
        #expect(anyones.isDanger, "\(anyones.consequence?.evidence ?? [])")
    }

    /// An onboarding RPC making the caller's board and the board's settings row, owned
    /// through the board (`board_settings.board_id -> boards.owner_id`): the settings row
    /// named no user, so the call was a DANGER with the advice to revoke what the app
    /// needs (a watch-party app's `create_room`, round thirty-four). One writing a
    /// settings row into any board is still one.
    @Test func anOwnRowAndItsChildOwnedThroughItAreOwnRows() throws {
        let (report, _) = try lint("""
            create table public.boards (id uuid primary key default gen_random_uuid(), owner_id uuid not null references auth.users (id),
                                        title text not null);
            create table public.board_settings (board_id uuid primary key references public.boards (id) on delete cascade,
                                                theme text not null default 'light');
            alter table public.boards enable row level security;
            alter table public.board_settings enable row level security;
            create policy boards_read on public.boards for select using (owner_id = (select auth.uid()));
            create policy settings_read on public.board_settings for select
              using (exists (select 1 from public.boards b where b.id = board_id and b.owner_id = (select auth.uid())));
            create function public.new_board(p_title text) returns uuid language plpgsql security definer set search_path = '' as $$
            declare v uuid;
            begin
              insert into public.boards (owner_id, title) values (auth.uid(), p_title) returning id into v;
              insert into public.board_settings (board_id) values (v);
              return v;
            end $$;
            create function public.reset_theme(p_board uuid) returns void language sql security definer set search_path = '' as $$
              insert into public.board_settings (board_id, theme) values (p_board, 'dark')
              on conflict (board_id) do update set theme = 'dark'
            $$;
            revoke all on function public.new_board(text), public.reset_theme(uuid) from public, anon;
            grant execute on function public.new_board(text), public.reset_theme(uuid) to authenticated;
            """)
        func finding(_ subject: String) throws -> LintFinding {
            try #require(report.findings.first { $0.rule.rawValue == "authenticated_security_definer_function_executable" && $0.subject == subject })
        }
        let mine = try finding("public.new_board(text)")
        #expect(!mine.isDanger, "\(mine.consequence?.evidence ?? [])")
        #expect(mine.consequence?.evidence.last?.hasPrefix(
            "the call changed only ava's own rows (public.board_settings through public.boards.owner_id, public.boards.owner_id)") == true,
                "\(mine.consequence?.evidence ?? [])")
        let anyones = try finding("public.reset_theme(uuid)")
        #expect(anyones.isDanger, "\(anyones.consequence?.evidence ?? [])")
    }

    /// `add_member(p_thread_id, p_user_id)`, allowed to the thread's creator or when
    /// `auth.uid() = p_user_id`: any user adds themselves to any thread, then reads it.
    /// Every uuid argument was the other user's id, the guard said no, and no danger
    /// showed (a chat app, round twenty-seven). The user gets the caller's own id and the
    /// thread one of ben's that ava cannot read; the creator-only function stays refused.
    @Test func aCallJoiningTheCallerToARowItCannotReadIsProven() throws {
        let (report, _) = try lint("""
            create table public.threads (id uuid primary key default gen_random_uuid(),
                                         created_by uuid not null default auth.uid() references auth.users (id));
            create table public.members (thread_id uuid not null references public.threads (id) on delete cascade,
                                         user_id uuid not null references auth.users (id), primary key (thread_id, user_id));
            alter table public.threads enable row level security;
            alter table public.members enable row level security;
            create policy t_read on public.threads for select to authenticated using (created_by = auth.uid());
            create policy t_make on public.threads for insert to authenticated with check (created_by = auth.uid());
            create policy m_read on public.members for select to authenticated using (user_id = auth.uid());
            create function public.add_member(p_thread_id uuid, p_user_id uuid) returns void language plpgsql
              security definer set search_path = '' as $$
            begin
              if auth.uid() <> (select created_by from public.threads where id = p_thread_id) and auth.uid() <> p_user_id then
                raise exception 'forbidden';
              end if;
              insert into public.members (thread_id, user_id) values (p_thread_id, p_user_id);
            end $$;
            create function public.add_member_as_creator(p_thread_id uuid, p_user_id uuid) returns void language plpgsql
              security definer set search_path = '' as $$
            begin
              if auth.uid() is distinct from (select created_by from public.threads where id = p_thread_id) then
                raise exception 'forbidden';
              end if;
              insert into public.members (thread_id, user_id) values (p_thread_id, p_user_id);
            end $$;
            """)
        func finding(_ subject: String) throws -> LintFinding {
            try #require(report.findings.first { $0.rule.rawValue == "authenticated_security_definer_function_executable" && $0.subject == subject })
        }
        let joining = try finding("public.add_member(uuid, uuid)")
        #expect(joining.isDanger, "\(joining.consequence?.evidence ?? [])")
        #expect(joining.consequence?.evidence.first == "ava called public.add_member(ben's public.threads row, ava's id): succeeded, inserted 1 row of public.members",
                "\(joining.consequence?.evidence ?? [])")
        let guarded = try finding("public.add_member_as_creator(uuid, uuid)")
        #expect(!guarded.isDanger, "\(guarded.consequence?.evidence ?? [])")
    }

    /// `billing.add_usage(_org uuid, ...)`, executable by anon through PUBLIC (a per-schema
    /// `alter default privileges ... revoke execute ... from public` does nothing): the
    /// probe gave `_org` a user's id, the foreign key refused it, and lint said WARN while
    /// anon could rewrite any organisation's usage (a billing app). A uuid parameter
    /// named for a table gets a row of it next.
    @Test func aUuidNamedForATableGetsOneOfItsRows() throws {
        let (report, _) = try lint("""
            create table public.orgs (id uuid primary key default gen_random_uuid(), name text not null);
            alter table public.orgs enable row level security;
            create schema billing;
            grant usage on schema billing to anon, authenticated;
            create table billing.usage (org_id uuid not null references public.orgs (id) on delete cascade,
              product text not null, quantity numeric not null default 0, primary key (org_id, product));
            alter table billing.usage enable row level security;
            create function billing.add_usage(_org uuid, _product text, _qty numeric default 1) returns void
              language plpgsql security definer set search_path = '' as $$
            begin
              insert into billing.usage (org_id, product, quantity) values (_org, _product, _qty)
              on conflict (org_id, product) do update set quantity = billing.usage.quantity + _qty;
            end $$;
            """, schemas: ["public", "billing"])
        let anon = try report.anonCall("billing.add_usage(uuid, text, numeric)")
        #expect(anon.isDanger, "\(anon.consequence?.evidence ?? [])")
        #expect(anon.consequence?.evidence.contains("anon called billing.add_usage(a public.orgs row, 'pgwarden'): succeeded, inserted 1 row of billing.usage") == true,
                "\(anon.consequence?.evidence ?? [])")
    }

    /// `get_contracts(contract_ids uuid[])`, a definer function anon may call that
    /// returns private rows by their ids (a documents hub, round thirty-seven): given
    /// `[ava's id]` it returned nothing, and lint said WARN. An array of keys named for a
    /// table gets an array of one of its rows' keys.
    @Test func anArrayOfKeysNamedForATableGetsOneOfItsRows() throws {
        let (report, _) = try lint("""
            create table public.contracts (id uuid primary key default gen_random_uuid(), title text not null);
            alter table public.contracts enable row level security;
            insert into public.contracts (title) values ('secret contract');
            create function public.get_contracts(contract_ids uuid[]) returns table (id uuid, title text)
              language sql security definer set search_path = '' as $$
              select c.id, c.title from public.contracts c where c.id = any (contract_ids) $$;
            """)
        let anon = try report.anonCall("public.get_contracts(uuid[])")
        #expect(anon.isDanger, "\(anon.consequence?.evidence ?? [])")
        #expect(anon.consequence?.evidence.contains(
            "anon called public.get_contracts([a public.contracts row]): succeeded, returned 1 row, changed nothing") == true,
                "\(anon.consequence?.evidence ?? [])")
    }

    /// `consume(p_wallet uuid, p_kind text)`, which acts only `if p_kind = 'receipt'`
    /// and raised for 'pgwarden': lint said WARN while any user used up any wallet (a
    /// bill-splitting app). A text parameter gets the value its body compares it with;
    /// the wallets row passed is the other user's, even where the probe made the rows.
    @Test func aTextParameterGetsTheValueItsBodyComparesItWith() throws {
        let (report, _) = try lint("""
            create table public.wallets (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null references auth.users (id), scans_used int not null default 0);
            alter table public.wallets enable row level security;
            create policy "own wallet" on public.wallets for select to authenticated using (owner_id = auth.uid());
            create function public.consume(p_wallet uuid, p_kind text) returns int
              language plpgsql security definer set search_path = '' as $$
            declare v int;
            begin
              if p_kind = 'receipt' then
                update public.wallets set scans_used = scans_used + 1 where id = p_wallet returning scans_used into v;
              else
                raise exception 'Unknown scan kind: %', p_kind;
              end if;
              return v;
            end $$;
            revoke all on function public.consume(uuid, text) from public, anon;
            grant execute on function public.consume(uuid, text) to authenticated;
            """)
        let call = try #require(report.findings.first {
            $0.rule.rawValue == "authenticated_security_definer_function_executable" && $0.subject == "public.consume(uuid, text)"
        })
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.last
            == "ava called public.consume(ben's public.wallets row, 'receipt'): succeeded, returned 1 row, updated 1 row of public.wallets",
                "\(call.consequence?.evidence ?? [])")
    }

    /// An array parameter (`user_ids uuid[]`) was passed null, and the call read nothing
    /// (an enterprise starter's `get_members_for_roles(uuid[])`): it gets an array of
    /// the value one element would get, here the other user's id.
    @Test func anArrayParameterGetsAnArrayOfOneValue() throws {
        let (report, _) = try lint("""
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade,
              email text not null default 'someone@example.com');
            alter table public.profiles enable row level security;
            create policy "own profile" on public.profiles for select to authenticated using (id = auth.uid());
            create function public.make_profile() returns trigger language plpgsql security definer set search_path = ''
              as $$ begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger make_profile after insert on auth.users for each row execute function public.make_profile();
            create function public.profiles_of(user_ids uuid[]) returns setof public.profiles
              language sql stable security definer set search_path = '' as
              $$ select * from public.profiles where id = any(user_ids) $$;
            """)
        let call = try report.anonCall("public.profiles_of(uuid[])")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.hasPrefix("anon called public.profiles_of([") && $0.contains("returned 1 row") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// A definer function granted to `authenticated` that returns a Vault secret (an
    /// edge function's helper reading the service key).
    static let vaultKeyFunction = """
        select vault.create_secret('not-a-real-key', 'service_role_key');
        create function public.get_service_key() returns text
          language sql security definer set search_path = '' as
          $$ select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key' $$;
        revoke execute on function public.get_service_key() from public, anon;
        grant execute on function public.get_service_key() to authenticated;
        """

    /// A definer function handing every signed-in user a Vault secret (`select
    /// decrypted_secret from vault.decrypted_secrets where name = 'service_role_key'`):
    /// lint called the call HARMLESS ("succeeded, returned 1 row"). Data read from the
    /// vault, which the caller's role may not read, is a consequence; the same function
    /// over a public table is not (the caller may read it).
    @Test func aVaultSecretHandedToASignedInUserIsProven() throws {
        let (report, _) = try lint(Self.vaultKeyFunction + """
            create table public.settings (name text primary key, value text not null);
            insert into public.settings values ('theme', 'dark');
            grant select on public.settings to authenticated;
            create function public.get_theme() returns text
              language sql security definer set search_path = '' as $$ select value from public.settings where name = 'theme' $$;
            revoke execute on function public.get_theme() from public, anon;
            grant execute on function public.get_theme() to authenticated;
            """)
        let key = try #require(report.findings.first {
            $0.rule.rawValue == "authenticated_security_definer_function_executable" && $0.subject == "public.get_service_key()"
        })
        #expect(key.isDanger, "\(key.consequence?.evidence ?? [])")
        #expect(key.consequence?.evidence.first?.hasSuffix(
            "it read vault.secrets, the Vault's secrets, which ava's role may not read itself") == true,
                "\(key.consequence?.evidence ?? [])")
        let theme = try #require(report.findings.first {
            $0.rule.rawValue == "authenticated_security_definer_function_executable" && $0.subject == "public.get_theme()"
        })
        #expect(!theme.isDanger, "\(theme.consequence?.evidence ?? [])")
    }

    /// The same handed to anon from an empty Vault (the twin's, where a hosted project
    /// holds the app's provider key): "returned false or null", HARMLESS. A function
    /// reading the Vault gets the secrets it names, in lint's rolled-back run.
    @Test func aVaultSecretReadFromAnEmptyVaultIsProven() throws {
        let (report, _) = try lint("""
            create function public.get_provider_key() returns text language plpgsql security definer set search_path = '' as $$
            declare result text;
            begin
              select decrypted_secret into result from vault.decrypted_secrets where name = 'provider_key' limit 1;
              return result;
            end $$;
            """)
        let call = try report.anonCall("public.get_provider_key()")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.first == "anon called public.get_provider_key(): succeeded, returned 1 row, "
            + "changed nothing; it read vault.secrets, the Vault's secrets, which anon's role may not read itself",
                "\(call.consequence?.evidence ?? [])")
    }

    /// An always-true update policy beside an own-only read policy on a table whose
    /// owner column is text (`user_id = auth.uid()::text`): the probe updated every row,
    /// ava's own among them, and lint said DANGER "ava updated 1 row"; a filtered update,
    /// as PostgREST sends, sees only the rows she may read. The probe now tries other
    /// users' rows only, by the text owner column.
    @Test func anAlwaysTrueUpdateOnATextOwnerTableTriesOtherUsersRows() throws {
        let (report, _) = try lint("""
            create table public.notes (id bigint generated always as identity primary key, user_id text, body text);
            alter table public.notes enable row level security;
            create policy own_read on public.notes for select to authenticated using (user_id = auth.uid()::text);
            create policy own_insert on public.notes for insert to authenticated with check (user_id = auth.uid()::text);
            create policy any_update on public.notes for update to authenticated using (true) with check (true);
            """)
        let update = try #require(report.findings.first { $0.rule.rawValue == "rls_policy_always_true" && $0.subject == "public.notes" })
        // ben's rows were there: the evidence says why an update of them reached none.
        #expect(update.consequence?.evidence.contains("ava updated 0 rows of public.notes owned by another user (an update or "
            + "delete that filters on a column, as every Data API request does, reaches only the rows the select policies "
            + "show; Supabase's API refuses an unfiltered one)") == true, "\(update.consequence?.evidence ?? [])")
        #expect(!update.isDanger, "\(update.consequence?.evidence ?? [])")
    }

    @Test func theLiteralComparedWithAParameterIsFoundInEveryUsualSpelling() {
        #expect(FunctionCallProbe.comparedLiteral(of: "p_kind", in: "if p_kind = 'receipt' then") == "receipt")
        #expect(FunctionCallProbe.comparedLiteral(of: "p_kind", in: "if 'proof'=p_kind or p_kind = 'x' then") == "proof")
        #expect(FunctionCallProbe.comparedLiteral(of: "kind", in: "where kind IN ('a', 'b')") == "a")
        #expect(FunctionCallProbe.comparedLiteral(of: "kind", in: "case kind when 'it''s' then 1 end") == "it's")
        #expect(FunctionCallProbe.comparedLiteral(of: "kind", in: "if p_kind = 'receipt' then") == nil)
        #expect(FunctionCallProbe.comparedLiteral(of: "", in: "x = 'y'") == nil)
    }

    /// An "admins only" lookup of a user's id by e-mail whose guard reads `current_role`,
    /// which inside a security definer function is its owner, never the caller: anyone
    /// gets any user's id. Called with 'pgwarden', it found no account and stayed a WARN
    /// (a real project's `app_admin_get_user_id_by_email`, round thirty); a parameter
    /// named for an e-mail gets a user's, and anon's call is proven.
    @Test func aLookupByEMailIsCalledWithAUsersEMail() throws {
        let (report, _) = try lint("""
            create function public.admin_user_id_by_email(p_email text) returns uuid
            language plpgsql security definer set search_path = '' as $$
            declare v uuid;
            begin
              if current_role not in ('service_role', 'postgres') then raise exception 'admins only'; end if;
              select id into v from auth.users where lower(email) = lower(p_email);
              return v;
            end $$;
            """)
        let lookup = try report.anonCall("public.admin_user_id_by_email(text)")
        #expect(lookup.isDanger, "\(lookup.consequence?.evidence ?? [])")
        #expect(lookup.consequence?.verdict == .proven)
        #expect(lookup.consequence?.evidence.first?.hasPrefix("anon called public.admin_user_id_by_email(") == true
                && lookup.consequence?.evidence.first?.contains("'s e-mail): succeeded, returned 1 row") == true,
                "\(lookup.consequence?.evidence ?? [])")
    }

    /// A reference generator that reads its table only to avoid a collision: what it
    /// returns is made per call, no row's data, though the call read a table's rows (here
    /// it counts them; a property site's `generate_listing_id()`, a made-up DANGER, round
    /// thirty). A second call
    /// returns another value; a lookup returning a row's value returns the same one.
    @Test func aValueMadePerCallIsNoData() throws {
        let (report, _) = try lint("""
            create table public.listings (id uuid primary key default gen_random_uuid(), ref text unique, title text not null);
            alter table public.listings enable row level security;
            insert into public.listings (ref, title) values ('L-000001', 'first');
            create function public.new_listing_ref() returns text language plpgsql security definer set search_path = '' as $$
            declare r text;
            begin
              loop
                r := 'L-' || lpad((floor(random() * 1000000) + (select count(*) from public.listings))::text, 7, '0');
                exit when not exists (select 1 from public.listings where ref = r);
              end loop;
              return r;
            end $$;
            create function public.first_listing_title() returns text language sql security definer set search_path = '' as $$
              select title from public.listings order by ref limit 1 $$;
            """)
        let generator = try report.anonCall("public.new_listing_ref()")
        #expect(!generator.isDanger, "\(generator.consequence?.evidence ?? [])")
        #expect(generator.consequence?.evidence.first?.hasSuffix(
            "called again, it returned other values: they are made per call, not read from a table") == true,
                "\(generator.consequence?.evidence ?? [])")
        let lookup = try report.anonCall("public.first_listing_title()")
        #expect(lookup.isDanger, "\(lookup.consequence?.evidence ?? [])")
    }

    /// A definer function listing a team's members' e-mails, called as anon with a team's
    /// id: the team lint makes gets its members too (as `plan draft`'s setup gives them),
    /// so the call returns an e-mail, a proven DANGER. (A team no one belonged to
    /// returned nothing, and it stayed a WARN: a developer-metrics project's
    /// `get_team_members(team_id)` handed any visitor its users' metadata.)
    @Test func aTeamNamedByItsParameterGetsItsMembers() throws {
        let (report, _) = try lint("""
            create table public.crews (id uuid primary key default gen_random_uuid(), title text not null default 'crew');
            create table public.crew_members (
              crew_id uuid not null references public.crews (id),
              user_id uuid not null references auth.users (id),
              primary key (crew_id, user_id));
            alter table public.crews enable row level security;
            alter table public.crew_members enable row level security;
            create policy "members read their crews" on public.crews for select to authenticated
              using (exists (select 1 from public.crew_members m where m.crew_id = crews.id and m.user_id = (select auth.uid())));
            create policy "own memberships" on public.crew_members for select to authenticated using (user_id = (select auth.uid()));
            create function public.crew_addresses(crew_id uuid) returns setof text
            language sql security definer set search_path = '' as $$
              select u.email::text from public.crew_members m join auth.users u on u.id = m.user_id
              where m.crew_id = crew_addresses.crew_id
            $$;
            create function public.crew_roster(crew_to_list_id uuid) returns setof text
            language sql security definer set search_path = '' as $$
              select u.email::text from public.crew_members m join auth.users u on u.id = m.user_id
              where m.crew_id = crew_to_list_id
            $$;
            """)
        let call = try report.anonCall("public.crew_addresses(uuid)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains("anon called public.crew_addresses(a public.crews row): succeeded, returned 1 row, changed nothing") == true,
                "\(call.consequence?.evidence ?? [])")
        // A parameter named by its first word (`crew_to_list_id`: `crews`) names the table too.
        let roster = try report.anonCall("public.crew_roster(uuid)")
        #expect(roster.isDanger, "\(roster.consequence?.evidence ?? [])")
    }

    /// A parameter named as the project's foreign key columns are (`p_org_id`, like
    /// `tallies.org_id -> organizations`) gets a row of the table they reference: an
    /// abbreviation names no table, so the call got a user's id, broke the foreign key,
    /// and anon advancing any organisation's invoice counter was a WARN (an invoicing app).
    @Test func aParameterNamedAsAForeignKeyColumnGetsItsTablesRow() throws {
        let (report, _) = try lint("""
            create table public.organizations (
              id uuid primary key default gen_random_uuid(), name text not null default 'org',
              created_by uuid references auth.users (id));
            create table public.tallies (
              org_id uuid primary key references public.organizations (id), next_number int not null default 1);
            alter table public.organizations enable row level security;
            alter table public.tallies enable row level security;
            create policy "makers read" on public.organizations for select to authenticated using (created_by = (select auth.uid()));
            create function public.next_tally(p_org_id uuid) returns int
            language plpgsql security definer set search_path = '' as $$
            declare n int;
            begin
              insert into public.tallies (org_id) values (p_org_id) on conflict (org_id) do nothing;
              update public.tallies set next_number = next_number + 1 where org_id = p_org_id returning next_number into n;
              return n;
            end $$;
            """)
        let call = try report.anonCall("public.next_tally(uuid)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.contains("public.organizations row): succeeded") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// A report over a date range (`p_start date, p_end date`) for a group by id: the
    /// dates were NULL, so it matched no row, and the group lint made had no expenses,
    /// so its total was NULL: anon reading any household's spending was a WARN. A
    /// range's start is now the far past and its end the far future, and the tables the
    /// body reads whose rows point at the group get their setup rows too.
    @Test func aDateRangeReportOverAGroupsRowsIsCalledWithTheirRows() throws {
        let (report, _) = try lint("""
            create table public.households (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null references auth.users (id));
            create table public.expenses (id uuid primary key default gen_random_uuid(),
              household_id uuid not null references public.households (id), amount numeric not null default 12,
              spent_on date not null default current_date);
            alter table public.households enable row level security;
            alter table public.expenses enable row level security;
            create policy "own households" on public.households for all to authenticated using (owner_id = (select auth.uid()));
            create policy "own expenses" on public.expenses for all to authenticated
              using (household_id in (select id from public.households where owner_id = (select auth.uid())));
            create function public.household_total(p_household_id uuid, p_start date, p_end date)
            returns numeric language sql stable security definer set search_path = '' as $$
              select sum(amount) from public.expenses
              where household_id = p_household_id and spent_on >= p_start and spent_on <= p_end
            $$;
            """)
        let call = try report.anonCall("public.household_total(uuid, date, date)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains {
            $0.contains("public.households row, '1900-01-01', '2999-12-31'): succeeded, returned 1 row")
        } == true, "\(call.consequence?.evidence ?? [])")
    }

    /// A booking RPC taking a time of day (`p_time time`), written into a NOT NULL
    /// column: NULL broke it (23502), and anon booking a visit in any client's name
    /// stayed a WARN (a car-valeting app; round thirty-eight). A time of day is 10:00.
    @Test func aTimeOfDayIsGivenATime() throws {
        let (report, _) = try lint("""
            create table public.visits (id uuid primary key default gen_random_uuid(),
              client_id uuid not null references auth.users (id), visit_day date not null, visit_time time not null);
            alter table public.visits enable row level security;
            create policy "own" on public.visits for all to authenticated using (client_id = auth.uid());
            create function public.book_visit(p_client_id uuid, p_day date, p_time time)
            returns uuid language plpgsql security definer set search_path = '' as $$
            declare v_id uuid;
            begin
              insert into public.visits (client_id, visit_day, visit_time) values (p_client_id, p_day, p_time) returning id into v_id;
              return v_id;
            end $$;
            """)
        let call = try report.anonCall("public.book_visit(uuid, date, time without time zone)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.contains("(ava's id, now(), '10:00'): succeeded") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// `increment_promo_uses(promo_id uuid)`: `promo` names no table (`promo_codes`), so
    /// the call got a user's id and "changed nothing", a WARN, while anon may use up any
    /// promo code (an AI app; round thirty-eight). The table the body picks rows of by
    /// the parameter (`update promo_codes ... where id = promo_id`) gives its row.
    @Test func aKeyTheBodyPicksRowsByGetsARowOfThatTable() throws {
        let (report, _) = try lint("""
            create table public.promo_codes (id uuid primary key default gen_random_uuid(), code text not null unique,
              current_uses integer not null default 0);
            alter table public.promo_codes enable row level security;
            create policy "read" on public.promo_codes for select to authenticated using (true);
            insert into public.promo_codes (code) values ('LAUNCH50');
            create function public.increment_promo_uses(promo_id uuid) returns void
            language sql security definer set search_path = '' as $$
              update public.promo_codes set current_uses = current_uses + 1 where id = promo_id $$;
            """)
        let call = try report.anonCall("public.increment_promo_uses(uuid)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.contains("(a public.promo_codes row): succeeded, updated 1 row") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// `increment_bonus_credits(user_uuid uuid, amount integer)`, updating the profile
    /// `where user_id = user_uuid`, where profiles are made by the app (no sign-up
    /// trigger): ava had none in lint's run, the call "changed nothing", and anon minting
    /// credits for any user was a WARN (an AI app; round thirty-eight). The user's rows
    /// the body picks are made, and the call is tried again.
    @Test func aUsersRowsTheBodyPicksAreMadeBeforeTheCallIsTriedAgain() throws {
        let (report, _) = try lint("""
            create table public.profiles (id uuid primary key default gen_random_uuid(),
              user_id uuid not null unique references auth.users (id) on delete cascade, bonus_credits integer not null default 0);
            alter table public.profiles enable row level security;
            create policy "own read" on public.profiles for select using (auth.uid() = user_id);
            create policy "own insert" on public.profiles for insert with check (auth.uid() = user_id);
            create function public.increment_bonus_credits(user_uuid uuid, amount integer)
            returns void language sql security definer set search_path = '' as $$
              update public.profiles set bonus_credits = bonus_credits + amount where user_id = user_uuid $$;
            """)
        let call = try report.anonCall("public.increment_bonus_credits(uuid, integer)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.last == "anon called public.increment_bonus_credits(ava's id (with a public.profiles row made), 1): succeeded, "
            + "updated 1 row of public.profiles", "\(call.consequence?.evidence ?? [])")
    }

    /// `book(p_user_id uuid, p_car_id bigint, ...)` over `cars (id serial)`: only `int8`
    /// keys were looked for, the call got car 1, which does not exist (23503), and anon
    /// booking in any user's name was a WARN (a car-wash app; round thirty-eight). Any
    /// integer key takes an integer parameter.
    @Test func anIntegerParameterNamesARowOfAnyIntegerKey() throws {
        let (report, _) = try lint("""
            create table public.cars (id serial primary key, owner_id uuid references auth.users (id));
            create table public.bookings (id serial primary key, user_id uuid references auth.users (id),
              car_id integer references public.cars (id), starts_at timestamptz not null);
            alter table public.cars enable row level security;
            alter table public.bookings enable row level security;
            create policy "own cars" on public.cars for all using (owner_id = auth.uid());
            create policy "own bookings" on public.bookings for all using (user_id = auth.uid());
            create function public.book(p_user_id uuid, p_car_id bigint, p_starts_at timestamptz)
            returns integer language plpgsql security definer set search_path = '' as $$
            declare v_id integer;
            begin
              insert into public.bookings (user_id, car_id, starts_at) values (p_user_id, p_car_id, p_starts_at) returning id into v_id;
              return v_id;
            end $$;
            """)
        let call = try report.anonCall("public.book(uuid, bigint, timestamp with time zone)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.contains("public.cars row, now()): succeeded") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// `find_customer_by_email(p_email text)` for a public booking page, `where
    /// lower(c.email) = lower(p_email)`: called with ava's e-mail and 'pgwarden', which no
    /// customer has, anon reading any shop's customers was a WARN (a car-valeting app;
    /// round thirty-eight). A text the body compares a column with gets a row's value.
    @Test func aTextTheBodyComparesAColumnWithGetsARowsValue() throws {
        let (report, _) = try lint("""
            create table public.customers (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null references auth.users (id), name text not null, email text not null);
            alter table public.customers enable row level security;
            create policy "own" on public.customers for all to authenticated using (owner_id = auth.uid());
            create function public.find_customer_by_email(p_email text)
            returns table (customer_id uuid, name text) language sql stable security definer set search_path = '' as $$
              select c.id, c.name from public.customers c where lower(c.email) = lower(p_email) $$;
            """)
        let call = try report.anonCall("public.find_customer_by_email(text)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.contains("public.customers row): succeeded, returned") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// A guest's order looked up by `shipping_email`: lint's "not a secret's column" test
    /// matched substrings, so `pin` in `shipping` withheld a row's e-mail, and anon reading
    /// any customer's orders was a WARN (round thirty-eight's note, fixed in thirty-nine).
    @Test func aColumnWhoseWordsNameNoSecretGetsARowsValue() throws {
        let (report, _) = try lint("""
            create table public.orders (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null references auth.users (id), shipping_email text not null, total numeric not null default 10);
            alter table public.orders enable row level security;
            create policy "own" on public.orders for all to authenticated using (owner_id = auth.uid());
            create function public.orders_for_email(p_email text)
            returns table (order_id uuid, total numeric) language sql stable security definer set search_path = '' as $$
              select o.id, o.total from public.orders o where o.shipping_email = p_email $$;
            """)
        let call = try report.anonCall("public.orders_for_email(text)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.contains("public.orders row): succeeded, returned") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    @Test func aSecretsColumnIsNamedByItsWords() {
        for secret in ["invite_code", "passcode", "api_key", "pin", "password_hash", "otp", "refresh_token", "Client_Secret"] {
            #expect(FunctionCallProbe.namesASecret(secret), "\(secret)")
        }
        for plain in ["shipping_email", "email", "phone", "opinion", "keyword_list", "hashtag_label"] {
            #expect(!FunctionCallProbe.namesASecret(plain), "\(plain)")
        }
    }

    /// Any user's conversations listed by a definer function with a defaulted limit
    /// (`recent_conversations(p_user uuid, p_limit integer default 10)`): the call with the
    /// limit widened came before the one with the user's rows made, which was never made,
    /// and anon listing anyone's conversations stayed a WARN (an AI chat app; round
    /// thirty-nine). The rows' call comes right after the attempt that asks for it.
    @Test func theRowsCallComesAfterTheWidenedOne() throws {
        let (report, _) = try lint("""
            create table public.conversations (id text primary key, user_id uuid not null references auth.users (id),
              title text not null);
            alter table public.conversations enable row level security;
            create policy "own" on public.conversations for all using (user_id = auth.uid()) with check (user_id = auth.uid());
            create function public.recent_conversations(p_user uuid, p_limit integer default 10)
            returns table (id text, title text) language sql stable security definer set search_path = public as $$
              select c.id, c.title from public.conversations c where c.user_id = p_user limit p_limit $$;
            """)
        let call = try report.anonCall("public.recent_conversations(uuid, integer)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.last?.hasPrefix(
            "anon called public.recent_conversations(ava's id (with a public.conversations row made)): succeeded, returned 1 row") == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// A payout RPC with no caller check, given a payout's id, where a payout must name a
    /// member (`member_id not null`) and there is none: lint could make no payout, called
    /// it with a user's id, saw "changed nothing", and anon paying out any commission was
    /// a WARN (an affiliate shop). The empty tables a row must point at are made first.
    @Test func aRowWhoseParentIsMissingGetsItsParentFirst() throws {
        let (report, _) = try lint("""
            create table public.members (id uuid primary key default gen_random_uuid(),
              user_id uuid references auth.users (id) on delete cascade, code text not null unique);
            create table public.payouts (id uuid primary key default gen_random_uuid(),
              member_id uuid not null references public.members (id) on delete cascade,
              amount numeric not null default 5, paid boolean not null default false);
            alter table public.members enable row level security;
            alter table public.payouts enable row level security;
            create policy "own member row" on public.members for select using (user_id = (select auth.uid()));
            create policy "own payouts" on public.payouts for select
              using (member_id in (select id from public.members where user_id = (select auth.uid())));
            create function public.pay_payout(p_payout_id uuid) returns void language plpgsql security definer
              set search_path = '' as $$
            begin update public.payouts set paid = true where id = p_payout_id and not paid; end $$;
            """)
        let call = try report.anonCall("public.pay_payout(uuid)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.contains { $0.contains("public.payouts row): succeeded, updated 1 row of public.payouts") } == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// An enum parameter gets a label (the one the body compares it with, else its
    /// first): NULL matched no row, and anon listing every user with a role stayed a WARN.
    @Test func anEnumParameterGetsALabel() throws {
        let (report, _) = try lint("""
            create type public.app_role as enum ('member', 'admin');
            create table public.user_roles (user_id uuid not null references auth.users on delete cascade,
              role public.app_role not null, primary key (user_id, role));
            alter table public.user_roles enable row level security;
            create function public.users_with_role(_role public.app_role) returns setof uuid language sql stable
              security definer set search_path = '' as $$ select user_id from public.user_roles where role = _role $$;
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = ''
              as $$ begin insert into public.user_roles (user_id, role) values (new.id, 'member'); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            """)
        let call = try report.anonCall("public.users_with_role(public.app_role)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.first?.hasPrefix("anon called public.users_with_role('member'): succeeded, returned") == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// A parameter named for a schedule gets one pg_cron takes, `'* * * * *'` (here a
    /// function that checks it as `cron.schedule` does, 22023, and records the job):
    /// 'pgwarden' was refused, and anon's call scheduling SQL as the owner (a
    /// marketing app's queue workers) stayed a WARN.
    @Test func aScheduleParameterGetsACronExpression() throws {
        let (report, _) = try lint("""
            create table public.jobs (id bigint generated always as identity primary key, name text, schedule text);
            alter table public.jobs enable row level security;
            create function public.add_job(job_name text, job_schedule text) returns void
            language plpgsql security definer set search_path = '' as $$
            begin
              if job_schedule is null or job_schedule !~ '^[0-9*/,-]+( [0-9*/,-]+){4}$' then
                raise exception using errcode = '22023', message = 'invalid schedule: ' || job_schedule;
              end if;
              insert into public.jobs (name, schedule) values (job_name, job_schedule);
            end $$;
            """)
        let call = try report.anonCall("public.add_job(text, text)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.first == "anon called public.add_job('pgwarden', '* * * * *'): succeeded, inserted 1 row of public.jobs",
                "\(call.consequence?.evidence ?? [])")
    }

    /// A definer function meant for a scheduled job, left executable by anon, with a
    /// look-ahead window (`p_hours integer default 24`): called with its default, its
    /// window held no booking (the one there starts in six days), and anon listing any
    /// user's bookings was HARMLESS (a booking app). A call that showed nothing is tried
    /// again with its defaulted windows and caps widened, by name; an offset is not one.
    @Test func aDefaultedWindowIsWidened() throws {
        let (report, _) = try lint("""
            create table public.bookings (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users (id) on delete cascade, starts_at timestamptz not null);
            alter table public.bookings enable row level security;
            create policy own_bookings on public.bookings for select to authenticated using (user_id = auth.uid());
            create function public.bookings_due(p_hours integer default 24, p_offset integer default 0)
            returns table (booking_id uuid) language sql stable security definer set search_path = public as $$
              select b.id from public.bookings b
              where b.starts_at > now() and b.starts_at <= now() + make_interval(hours => p_hours)
              order by b.starts_at offset p_offset;
            $$;
            insert into auth.users (id, aud, role, email) values
              ('11111111-1111-1111-1111-111111111111', 'authenticated', 'authenticated', 'someone@example.com');
            insert into public.bookings (user_id, starts_at)
              values ('11111111-1111-1111-1111-111111111111', now() + interval '6 days');
            """)
        let call = try report.anonCall("public.bookings_due(integer, integer)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence == [
            "anon called public.bookings_due(): succeeded, changed nothing",
            "anon called public.bookings_due(p_hours => 10000): succeeded, returned 1 row, changed nothing",
        ], "\(call.consequence?.evidence ?? [])")
        #expect(FunctionCallProbe.widens(.init(name: "max_results", type: "integer", category: "N", isVariadic: false)))
        #expect(FunctionCallProbe.widens(.init(name: "p_window", type: "interval", category: "T", isVariadic: false)))
        #expect(!FunctionCallProbe.widens(.init(name: "p_page", type: "integer", category: "N", isVariadic: false)))
        #expect(!FunctionCallProbe.widens(.init(name: "p_hours", type: "text", category: "S", isVariadic: false)))
    }

    /// An invoker RPC that empties a table (an app's `truncate_tables()`): TRUNCATE is
    /// not subject to row security, and Supabase's default privileges give anon
    /// TRUNCATE on public's tables, so any visitor could empty them. It was `exec` and
    /// "no dangers found"; and a truncation counts no deleted row, so even a definer
    /// call showed "changed nothing". The table's new file shows it now.
    @Test func aFunctionThatTruncatesIsADanger() throws {
        let (report, _) = try lint("""
            create table public.items (id bigint generated always as identity primary key, body text not null);
            alter table public.items enable row level security;
            create policy "read items" on public.items for select using (true);
            create function public.reset_items() returns void language plpgsql set search_path = '' as $$
            begin
              truncate table public.items;
            end $$;
            create function public.wipe_items() returns void language plpgsql security definer set search_path = '' as $$
            begin
              truncate public.items;
            end $$;
            create function public.says_truncate() returns text language sql set search_path = '' as $$
              select 'never truncate anything'
            $$;
            """)
        let invoker = try #require(report.findings.first { $0.rule == .apiFunctionTruncates && $0.subject == "public.reset_items()" })
        #expect(invoker.isDanger, "\(invoker.consequence?.evidence ?? [])")
        #expect(invoker.consequence?.evidence == ["anon called public.reset_items(): succeeded, truncated public.items"])
        #expect(invoker.detail.hasPrefix("anon may execute function public.reset_items(), whose body runs TRUNCATE"))
        #expect(invoker.rule.remediation == "https://www.postgresql.org/docs/current/ddl-rowsecurity.html")
        let definer = try report.anonCall("public.wipe_items()")
        #expect(definer.isDanger)
        #expect(definer.consequence?.evidence == ["anon called public.wipe_items(): succeeded, truncated public.items"])
        // A body that only says the word changes nothing when called.
        let words = try #require(report.findings.first { $0.rule == .apiFunctionTruncates && $0.subject == "public.says_truncate()" })
        #expect(!words.isDanger, "\(words.consequence?.evidence ?? [])")
    }

    /// A definer RPC switching any organisation's plan, the plan named by a text key
    /// (`_plan_id text`, `plans (id text)`): called with 'pgwarden', it raised "no such
    /// plan", and anon switching any organisation's plan stayed a WARN (a messaging
    /// API's billing schema). A text parameter named for a table gets one of its rows
    /// by a text key, as a uuid one does.
    @Test func aTextParameterNamedForATableGetsOneOfItsRows() throws {
        let (report, _) = try lint("""
            create table public.plans (id text primary key, active boolean not null default true);
            insert into public.plans (id) values ('free'), ('pro');
            create table public.orgs (id uuid primary key default gen_random_uuid(), name text not null default 'org');
            create table public.subscriptions (org_id uuid primary key references public.orgs on delete cascade,
              plan_id text not null default 'free' references public.plans);
            alter table public.plans enable row level security;
            alter table public.orgs enable row level security;
            alter table public.subscriptions enable row level security;
            create policy "plans are public" on public.plans for select using (true);
            create function public.change_plan(_org_id uuid, _plan_id text) returns void
            language plpgsql security definer set search_path = '' as $$
            begin
              perform 1 from public.plans where id = _plan_id and active;
              if not found then raise exception 'no such plan %', _plan_id using errcode = 'P0002'; end if;
              update public.subscriptions set plan_id = _plan_id where org_id = _org_id;
            end $$;
            """)
        let call = try report.anonCall("public.change_plan(uuid, text)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.last
            == "anon called public.change_plan(a public.orgs row, a public.plans row): succeeded, updated 1 row of public.subscriptions",
            "\(call.consequence?.evidence ?? [])")
    }

    /// An integer key named as its table's key column (`p_score_id`: `question_scores
    /// (score_id serial primary key)`): called with 1, which no row had, anon rewriting
    /// any student's score was "changed nothing", a WARN (an LMS's teacher override,
    /// round thirty-four). It gets a row of the table; `p_points`, a number to write,
    /// stays a number.
    @Test func anIntegerKeyNamedAsItsTablesKeyColumnGetsOneOfItsRows() throws {
        let (report, _) = try lint("""
            create table public.question_scores (
              score_id serial primary key, student_id uuid not null references auth.users (id), points numeric not null default 0);
            alter sequence public.question_scores_score_id_seq restart with 40;
            alter table public.question_scores enable row level security;
            create policy own_read on public.question_scores for select to authenticated using (student_id = auth.uid());
            create function public.override_score(p_score_id integer, p_points numeric) returns void
            language plpgsql security definer set search_path = public as $$
            begin
              update question_scores set points = p_points where score_id = p_score_id;
            end $$;
            """)
        let call = try report.anonCall("public.override_score(integer, numeric)")
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence.last?.hasSuffix("public.question_scores row, 1): succeeded, updated 1 row of public.question_scores") == true,
                "\(call.consequence?.evidence ?? [])")
    }

    /// A definer function recomputing any user's score, which wrote ben's profile with the
    /// value it already had: the other users' rows hashed the same before and after, so
    /// ava's call "changed only ava's own rows", where it wrote ben's (an experiences
    /// marketplace's trust score). A row's version counts too.
    @Test func rewritingAnotherUsersRowWithItsOwnValuesIsNoOwnRowChange() throws {
        let (report, _) = try lint("""
            create table public.profiles (id bigint generated always as identity primary key,
              user_id uuid not null unique references auth.users (id) on delete cascade, score int not null default 0);
            alter table public.profiles enable row level security;
            create policy own on public.profiles for select to authenticated using (user_id = auth.uid());
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = ''
              as $$ begin insert into public.profiles (user_id) values (new.id); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            create function public.refresh_score(p_user_id uuid) returns void language sql security definer set search_path = ''
              as $$ update public.profiles set score = 0 where user_id = p_user_id $$;
            revoke execute on function public.refresh_score(uuid) from public, anon;
            """)
        let call = try #require(report.findings.first {
            $0.rule == .authenticatedSecurityDefinerFunctionExecutable && $0.subject == "public.refresh_score(uuid)"
        })
        #expect(call.isDanger, "\(call.consequence?.evidence ?? [])")
        #expect(call.consequence?.evidence == ["ava called public.refresh_score(ben's id): succeeded, updated 1 row of public.profiles"],
                "\(call.consequence?.evidence ?? [])")
    }

    private func lint(_ sql: String, schemas: [String] = ["public"]) throws -> (report: LintReport, connection: Connection) {
        try LintReport.linting(sql, schemas: schemas)
    }
}

extension LintReport {
    /// lint's report on a new twin database made by one migration, `sql`, and the
    /// database's connection.
    static func linting(_ sql: String, schemas: [String] = ["public"]) throws -> (report: LintReport, connection: Connection) {
        let files = try MigrationFolder(["20240101000000_schema.sql": sql])
        return try withExtendedLifetime(files) {  // the folder goes when `files` does
            let folder = URL(fileURLWithPath: files.path)
            let connection = try ElectricRide.database(migrations: folder, seeded: false)
            return (try Linter(connection: connection, schemas: schemas).run(migrations: folder), connection)
        }
    }

    /// The `anon_security_definer_function_executable` finding on the function `subject`.
    func anonCall(_ subject: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> LintFinding {
        try #require(findings.first { $0.rule == .anonSecurityDefinerFunctionExecutable && $0.subject == subject },
                     sourceLocation: sourceLocation)
    }
}
