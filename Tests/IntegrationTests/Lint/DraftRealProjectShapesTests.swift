import Foundation
import Testing
import WardenKit
import TestSupport

/// Shapes of real projects the draft misread (round of 2026-11-29, second session), each
/// with SQL of our own: a policy asking only whether a user is signed in, a user table
/// everyone may read, an empty parent table the personas' rows point into, and a table
/// with `do instead` rules.
@Suite struct DraftRealProjectShapesTests {
    /// `auth.uid() is not null and listed`: every signed-in user sees the listed rows. It
    /// was taken as an owner rule, so no row was anyone's, the cell was drafted as a
    /// DANGER ("sees other users' rows") on a catalogue no user owns, and the draft failed
    /// its own run with "cannot probe" cells (a menu app's catalogue).
    @Test func askingWhetherAUserIsSignedInIsNoOwnerRule() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("signedincheck").project)
        try connection.execute(unsafeScript: """
            create table public.products (
              id uuid primary key default gen_random_uuid(), title text not null, listed boolean not null default true);
            alter table public.products enable row level security;
            create policy "signed-in users browse" on public.products for select
              using (auth.uid() is not null and listed);
            create policy "signed-in users browse too" on public.products for select
              using ((select auth.uid()) is not null and listed);
            grant select on public.products to anon, authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let products = try #require(draft.plan.relations.first { $0.name == "products" })
        #expect(products.owner == nil, "\(draft.yaml)")
        #expect(products.access["ava"] == Access(select: .all, insert: .nothing, update: .nothing, delete: .nothing), "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// A table keyed by the user (`cards.id -> auth.users`) that everyone may read, with
    /// no owner rule: the signed-in personas got the DANGER "sees every user's rows",
    /// anon, who reads the same rows, got none.
    @Test func anonReadingEveryUsersRowsIsADanger() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("anonusercolumn").project)
        try connection.execute(unsafeScript: """
            create table public.cards (id uuid primary key references auth.users on delete cascade, nickname text);
            alter table public.cards enable row level security;
            create policy "everyone reads" on public.cards for select using (true);
            grant select on public.cards to anon, authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.yaml.contains("anon: read  # DANGER: anon (no sign-in) sees every user's rows (user column id)"), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Seats (one per user) in teams, the team read through `my_team()`: the setup made
    /// one team for an empty `teams`, so both personas sat in it, each saw the other's
    /// seat and the team showed as every row's (made-up DANGERs). An empty table the
    /// personas' rows point into now gets a row per persona.
    @Test func eachPersonaSitsInATeamOfItsOwn() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("parentrows").project)
        try connection.execute(unsafeScript: """
            create table public.teams (id uuid primary key default gen_random_uuid(), title text not null);
            create table public.seats (
              person uuid primary key references auth.users (id), team uuid not null references public.teams (id));
            create function public.my_team() returns uuid language sql stable security definer set search_path = ''
              as $$ select team from public.seats where person = auth.uid() $$;
            revoke execute on function public.my_team() from public, anon;
            alter table public.teams enable row level security;
            alter table public.seats enable row level security;
            create policy "own team" on public.teams for select to authenticated using (id = public.my_team());
            create policy "own team's seats" on public.seats for select to authenticated
              using (person = auth.uid() or team = public.my_team());
            grant select on public.teams, public.seats to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        // A team per persona (`id = public.my_team()` is teams' owner rule; without it, as
        // an empty parent of the seats, `DraftOwnership.isParentOfPersonaRows`).
        let setup = draft.plan.setup.joined(separator: "\n")
        #expect(setup.contains("from auth.users u where u.email in ('ava.draft@example.com', 'ben.draft@example.com')"), "\(setup)")
        #expect(!draft.dangerCells.contains { $0.contains("teams") || $0.contains("seats") }, "\(draft.dangerCells)")
        let teams = try #require(draft.plan.relations.first { $0.name == "teams" })
        #expect(teams.access["ava"]?.select == .own, "\(draft.yaml)")
        let seats = try #require(draft.plan.relations.first { $0.name == "seats" })
        #expect(seats.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// A log with `do instead nothing` rules on update and delete: PostgreSQL refuses an
    /// insert's ON CONFLICT clause on such a table (0A000), so the setup's rows were lost
    /// and the draft failed its own run. Its setup insert now has no such clause.
    @Test func aTableWithRulesGetsItsSetupRows() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("rulesetup").project)
        try connection.execute(unsafeScript: """
            create table public.audit (
              id bigint generated always as identity primary key,
              actor uuid not null references auth.users on delete cascade, what text not null);
            create rule audit_keep_updates as on update to public.audit do instead nothing;
            create rule audit_keep_deletes as on delete to public.audit do instead nothing;
            alter table public.audit enable row level security;
            create policy "own entries" on public.audit for select to authenticated using (actor = auth.uid());
            create policy "write own entries" on public.audit for insert to authenticated with check (actor = auth.uid());
            grant select, insert on public.audit to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let setup = draft.plan.setup.joined(separator: "\n")
        #expect(setup.contains("insert into public.audit"), "\(setup)")
        #expect(!setup.contains("on conflict"), "\(setup)")
        let audit = try #require(draft.plan.relations.first { $0.name == "audit" })
        #expect(audit.access["ava"] == Access(select: .own, insert: .own, update: .nothing, delete: .nothing), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// A column grant (`grant update (caption)`) with an update policy that forgets the
    /// holder: the update probe set the table's first column, which the grant does not
    /// cover, so ava's update showed as refused (42501) while she could rewrite every
    /// card's caption, as PostgREST's PATCH of that column does (a ledger app's
    /// profiles, a card game). The probe now sets a column the persona's role may update.
    @Test func anUpdateThroughAColumnGrantIsObserved() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("columngrant").project)
        try connection.execute(unsafeScript: """
            create table public.cards (
              id bigint generated by default as identity primary key,
              holder uuid not null references auth.users (id), caption text);
            alter table public.cards enable row level security;
            revoke all on public.cards from anon, authenticated;
            grant select on public.cards to authenticated;
            grant update (caption) on public.cards to authenticated;
            create policy "cards read" on public.cards for select to authenticated using (true);
            create policy "cards edit" on public.cards for update to authenticated using (true);
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let cards = try #require(draft.plan.relations.first { $0.name == "cards" })
        #expect(cards.access["ava"]?.update == .all, "\(draft.yaml)")
        #expect(draft.dangerCells.contains { $0.contains("cards") && $0.contains("update") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Tenants read from the token's `app_metadata` (`auth.jwt() -> 'app_metadata' ->
    /// 'tenants'`): the drafted personas' tokens carry only the auth server's provider
    /// keys there, so every cell was `none` and nothing said why (a ticketing app). The
    /// table's NOTE now names the keys and how to give a persona such claims.
    @Test func policiesReadingAppMetadataGetANote() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("appmetadata").project)
        try connection.execute(unsafeScript: """
            create table public.tickets (id bigint generated always as identity primary key, tenant text not null);
            alter table public.tickets enable row level security;
            create policy "tenant members" on public.tickets for select to authenticated
              using ((auth.jwt() -> 'app_metadata' -> 'tenants') ? tenant);
            grant select on public.tickets to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.yaml.contains("# NOTE: its policies read the token's app_metadata (tenants), which the drafted personas' tokens do not carry"),
                "\(draft.yaml)")
    }

    /// Offers anyone may browse while they are valid (`valid_until > now()`): the
    /// sample's `now()` is not later than now, so every drafted offer was hidden, anon's
    /// read showed `none` with no DANGER, and ava's own rows could not be probed (a
    /// shopping app's notes). A date or time the policies compare with the clock now
    /// gets a day after it (or before it, for `starts_at <= now()`).
    @Test func aRowValidUntilLaterIsSeen() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("validuntil").project)
        try connection.execute(unsafeScript: """
            create table public.offers (
              id bigint generated always as identity primary key,
              seller uuid not null default auth.uid() references auth.users (id),
              valid_until timestamptz not null, starts_on date not null);
            alter table public.offers enable row level security;
            create policy "browse valid offers" on public.offers for select
              using (valid_until > now() and current_date >= starts_on);
            create policy "sellers add" on public.offers for insert to authenticated with check (seller = auth.uid());
            create policy "sellers edit" on public.offers for update to authenticated
              using (seller = auth.uid()) with check (seller = auth.uid());
            grant select on public.offers to anon;
            grant select, insert, update on public.offers to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let offers = try #require(draft.plan.relations.first { $0.name == "offers" })
        #expect(offers.sample.contains { $0.column == "valid_until" && $0.expression == "now() + interval '1 day'" }, "\(draft.yaml)")
        #expect(offers.sample.contains { $0.column == "starts_on" && $0.expression == "current_date - 1" }, "\(draft.yaml)")
        #expect(offers.access["anon"]?.select == .all, "\(draft.yaml)")
        #expect(offers.access["ava"] == Access(select: .all, insert: .own, update: .own, delete: .nothing), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Groups whose members are an array (`member_ids uuid[] default array[auth.uid()]`,
    /// `auth.uid() = any (member_ids)`): the setup wrote a uuid into the array (42804) and
    /// lost its rows, and the insert probe of "another user's row" left the column to its
    /// default, ava's own id: a made-up DANGER "may insert other users' rows" (a chat app's
    /// rooms). The array now holds the persona in the sample and the setup.
    @Test func aMemberArrayNamesThePersona() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("memberarray").project)
        try connection.execute(unsafeScript: """
            create table public.groups (
              id uuid primary key default gen_random_uuid(), title text,
              member_ids uuid[] not null default array[auth.uid()]);
            alter table public.groups enable row level security;
            create policy "members read" on public.groups for select to authenticated using (auth.uid() = any (member_ids));
            create policy "members add" on public.groups for insert to authenticated with check (auth.uid() = any (member_ids));
            create policy "members remove" on public.groups for delete to authenticated using (auth.uid() = any (member_ids));
            grant select, insert, delete on public.groups to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let groups = try #require(draft.plan.relations.first { $0.name == "groups" })
        #expect(groups.sample.contains { $0.column == "member_ids" && $0.expression == "array[auth.uid()]" }, "\(draft.yaml)")
        #expect(groups.access["ava"] == Access(select: .own, insert: .own, update: .nothing, delete: .own), "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// One wish per user, kept by a BEFORE INSERT trigger (`raise exception`, P0001):
    /// the setup's own row uses each persona's wish up, so the persona's insert probe is
    /// refused by the trigger. That was an ERROR and a draft failing its own run; it is
    /// now a refusal by the database's own code, as for updates and deletes (what a
    /// fresh user may do, the setup cannot show: the draft says insert none).
    @Test func anInsertTheDatabasesOwnCodeRefusesIsRefused() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("onewish").project)
        try connection.execute(unsafeScript: """
            create table public.wishes (
              id bigint generated always as identity primary key,
              owner_id uuid not null references auth.users (id), body text not null);
            alter table public.wishes enable row level security;
            create policy "own wishes" on public.wishes for all to authenticated
              using (owner_id = auth.uid()) with check (owner_id = auth.uid());
            create function public.one_wish() returns trigger language plpgsql as $$
            begin
              if exists (select 1 from public.wishes w where w.owner_id = new.owner_id) then
                raise exception 'only one wish per user';
              end if;
              return new;
            end $$;
            create trigger one_wish before insert on public.wishes for each row execute function public.one_wish();
            grant select, insert, update, delete on public.wishes to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let insert = try #require(draft.report.results.first {
            $0.subject == "public.wishes" && $0.persona == "ava" && $0.operation == .insert && $0.probe == "insert own row"
        })
        #expect(insert.observed == "refused by the database's own code (P0001: only one wish per user): no row was inserted", "\(insert.observed)")
        #expect(ObservedAccessReport(draft, planFile: "plan.yml").errorLines.isEmpty)
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Bookings every signed-in user may read, whose setup row a two-column check
    /// refuses (`ends_at > starts_at`, both drafted `now()`), and a view over them: with
    /// no row at all, every read saw 0 rows, and the draft wrote `none` for everyone,
    /// service_role included, with no NOTE (a project tracker's ten empty tables). A read
    /// of a relation with no rows, as the admin too, now proves nothing: "cannot probe",
    /// with a NOTE, and the draft says it fails those cells.
    @Test func aRelationWithNoRowsAtAllProvesNoRead() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("norows").project)
        try connection.execute(unsafeScript: """
            create table public.bookings (
              id bigint generated always as identity primary key,
              starts_at timestamptz not null, ends_at timestamptz not null, check (ends_at > starts_at));
            alter table public.bookings enable row level security;
            create policy "signed-in users read" on public.bookings for select to authenticated using (true);
            grant select on public.bookings to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let read = try #require(draft.report.results.first { $0.subject == "public.bookings" && $0.persona == "ava" && $0.probe == "select" })
        #expect(read.observed.hasPrefix("cannot probe: public.bookings has no rows at all (as the admin too)"), "\(read.observed)")
        #expect(draft.yaml.contains("# NOTE: select: cannot probe: public.bookings has no rows at all"), "\(draft.yaml)")
        #expect(!draft.verified)
    }

    /// Ideas filed under the app's own id for the user, which a function without
    /// arguments looks up (`author_id = public.my_member_id()`): no owner rule was found,
    /// ava's insert with her own id counted as "every row", and the draft marked made-up
    /// DANGERs (may insert, update every row) on both personas (an AI-prompt app's
    /// roadmap). The comparison is now the owner rule, the call the sample's value.
    @Test func aColumnComparedWithAUserReadingCallIsTheOwner() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("memberid").project)
        try connection.execute(unsafeScript: """
            create table public.members (
              id bigint generated always as identity primary key,
              auth_id uuid not null unique references auth.users (id) on delete cascade);
            alter table public.members enable row level security;
            create policy "own member row" on public.members for select to authenticated using (auth_id = auth.uid());
            create function public.my_member_id() returns bigint language sql stable security definer set search_path = ''
              as $$ select id from public.members where auth_id = (select auth.uid()) $$;
            create function public.add_member() returns trigger language plpgsql security definer set search_path = '' as $$
            begin
              insert into public.members (auth_id) values (new.id);
              return new;
            end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.add_member();
            create table public.ideas (
              id bigint generated always as identity primary key,
              author_id bigint not null references public.members (id), title text not null);
            alter table public.ideas enable row level security;
            create policy "read ideas" on public.ideas for select to authenticated using (true);
            create policy "file own ideas" on public.ideas for insert to authenticated with check (author_id = public.my_member_id());
            create policy "edit own ideas" on public.ideas for update to authenticated
              using (author_id = public.my_member_id()) with check (author_id = public.my_member_id());
            grant select on public.members to authenticated;
            grant select, insert, update on public.ideas to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let ideas = try #require(draft.plan.relations.first { $0.name == "ideas" })
        #expect(ideas.owner == "author_id = public.my_member_id()", "\(draft.yaml)")
        #expect(ideas.sample.contains { $0.column == "author_id" && $0.expression == "public.my_member_id()" }, "\(draft.yaml)")
        #expect(ideas.access["ava"] == Access(select: .all, insert: .own, update: .own, delete: .nothing), "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("ideas") && $0.contains("insert") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Requests that must be sent as one's own and start `open` (`with check (sender =
    /// auth.uid() and state = 'open')`, `state` nullable without a default): the sample
    /// left `state` out, the policy refused every insert, and the draft said a user may
    /// not send a request, though the project's own pgTAP test shows one may (a business
    /// card app's connections). A text a WITH CHECK asks for is now in the sample.
    @Test func aValueTheInsertPolicyAsksForIsInTheSample() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("checkliteral").project)
        try connection.execute(unsafeScript: """
            create table public.requests (
              id bigint generated always as identity primary key,
              sender uuid not null references auth.users (id), state text, role text);
            alter table public.requests enable row level security;
            create policy "read own" on public.requests for select to authenticated using (sender = auth.uid());
            create policy "send own, open" on public.requests for insert to authenticated
              with check (sender = auth.uid() and state = 'open' and (role is null or role <> 'admin'));
            grant select, insert on public.requests to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let requests = try #require(draft.plan.relations.first { $0.name == "requests" })
        #expect(requests.sample.contains { $0.column == "state" && $0.expression == "'open'" }, "\(draft.yaml)")
        #expect(!requests.sample.contains { $0.column == "role" }, "\(draft.yaml)")
        #expect(requests.access["ava"] == Access(select: .own, insert: .own, update: .nothing, delete: .nothing), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// The empty parent the personas' rows point into, with no rule of its own: a row per
    /// persona, made only while it is empty.
    @Test func anEmptyParentGetsARowPerPersona() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("emptyparent").project)
        try connection.execute(unsafeScript: """
            create table public.courses (id uuid primary key default gen_random_uuid(), title text not null);
            create table public.enrolments (
              student uuid not null references auth.users (id), course uuid not null references public.courses (id),
              primary key (student, course));
            alter table public.enrolments enable row level security;
            create policy "own enrolments" on public.enrolments for select to authenticated using (student = auth.uid());
            grant select on public.courses, public.enrolments to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let setup = draft.plan.setup.joined(separator: "\n")
        #expect(setup.contains("from auth.users u where u.email in ('ava.draft@example.com', 'ben.draft@example.com') and not exists (select 1 from public.courses)"), "\(setup)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Roles in a lookup table (`user_roles.role_id -> roles.id`), the rules naming the
    /// role by its name (`r.name = 'super_admin'`), not its key: the setup gave each
    /// persona the first role, super_admin, and every cell described an administrator (an
    /// RBAC base app). A lookup row named by any of its values counts as named.
    @Test func aRoleNamedByAnotherColumnOfItsRowIsNoPersonasRole() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("rolename").project)
        try connection.execute(unsafeScript: """
            create table public.roles (id bigserial primary key, name text not null unique);
            insert into public.roles (name) values ('super_admin');
            create table public.user_roles (
              user_id uuid not null references auth.users (id), role_id bigint not null references public.roles (id),
              primary key (user_id, role_id));
            create function public.is_super_admin() returns boolean language sql stable security definer set search_path = '' as $$
              select exists (select 1 from public.user_roles ur join public.roles r on r.id = ur.role_id
                             where ur.user_id = auth.uid() and r.name = 'super_admin')
            $$;
            create table public.notes (id bigint generated always as identity primary key, body text not null);
            alter table public.roles enable row level security;
            alter table public.user_roles enable row level security;
            alter table public.notes enable row level security;
            create policy "own roles" on public.user_roles for select to authenticated using (user_id = auth.uid());
            create policy "admins do all" on public.notes for all to authenticated
              using (public.is_super_admin()) with check (public.is_super_admin());
            grant select on public.roles, public.user_roles to authenticated;
            grant select, insert, update, delete on public.notes to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let setup = draft.plan.setup.joined(separator: "\n")
        #expect(!setup.contains("insert into public.user_roles"), "\(setup)")
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.access["ava"] == Access.nothing, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("notes") }, "\(draft.dangerCells)")
    }

    /// A permission check with constant arguments (`public.can('docs.manage')`) on
    /// storage: taken as the owner rule, no file was anyone's and the draft failed ten
    /// of its own cells (an RBAC base app's `authorize('companies.manage')`). A call is
    /// an owner rule only when a column of the row is among its arguments.
    @Test func aPermissionCheckWithConstantArgumentsIsNoOwnerRule() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("constantcall").project)
        try connection.execute(unsafeScript: """
            create table public.grants (user_id uuid not null references auth.users (id), permission text not null);
            alter table public.grants enable row level security;
            create function public.can(p text) returns boolean language sql stable security definer set search_path = '' as $$
              select exists (select 1 from public.grants where user_id = auth.uid() and permission = p)
            $$;
            create table public.docs (id bigint generated always as identity primary key, title text not null);
            alter table public.docs enable row level security;
            create policy "viewers read" on public.docs for select to authenticated using (title is not null and public.can('docs.view'));
            grant select on public.docs to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let docs = try #require(draft.plan.relations.first { $0.name == "docs" })
        #expect(docs.owner == nil, "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// One owner per organisation (`unique (org_id, role) where role = 2`): the partial
    /// index made the role column "unique", so the setup numbered it per persona above
    /// every rank there is (ava 3, ben 4), and ben removed the owners (a site builder's
    /// memberships). A partial unique index constrains only its rows: no numbering.
    @Test func aPartialUniqueIndexDoesNotNumberARole() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("partialunique").project)
        try connection.execute(unsafeScript: """
            create table public.orgs (id bigint generated always as identity primary key, name text not null);
            create table public.members (
              id bigint generated always as identity primary key, org_id bigint not null references public.orgs (id),
              user_id uuid references auth.users (id), role int not null, unique (user_id, org_id));
            create unique index one_owner on public.members (org_id, role) where (role = 2);
            alter table public.members enable row level security;
            create policy "own memberships" on public.members for select to authenticated using (user_id = auth.uid());
            grant select on public.members to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let setup = draft.plan.setup.joined(separator: "\n")
        #expect(setup.contains("insert into public.members"), "\(setup)")
        #expect(!setup.contains("coalesce(max(role), 0)"), "\(setup)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }
}
