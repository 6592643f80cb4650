import Foundation
import Testing
import WardenKit
import TestSupport

/// Values the draft gives a row (in its setup and its insert probes) that real projects
/// refused (round of 2026-11-29, fourth session), each with SQL of our own. A refused
/// setup row leaves its table without rows, and a table without rows hides what its
/// policies let through: each case had a `using (true)` that no cell showed.
@Suite struct DraftSetupValuesTests {
    private static func cells(_ draft: PlanDraft, _ table: String) -> [String: Access] {
        draft.plan.relations.first { $0.name == table }?.access ?? [:]
    }

    /// `key_hash bytea not null` (an API-keys table), and NOT NULL columns of the other
    /// types no category covered: they got NULL, every row was refused, and a read and
    /// update policy of `using (true)` showed as nothing.
    @Test func notNullColumnsOfEveryCommonTypeGetAValue() throws {
        let draft = try DraftRealProjectShapesTests.draft("settypes", """
            create table public.api_keys (
              id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id),
              key_hash bytea not null, lifetime interval not null, search tsvector not null, spot point not null,
              booked tstzrange not null, days daterange not null, seats int4range not null, device macaddr not null);
            alter table public.api_keys enable row level security;
            create policy "read all" on public.api_keys for select to authenticated using (true);
            create policy "update all" on public.api_keys for update to authenticated using (true);
            create policy "insert own" on public.api_keys for insert to authenticated with check (owner_id = auth.uid());
            """)
        let keys = Self.cells(draft, "api_keys")
        #expect(keys["ava"]?.select == .all, "\(draft.yaml)")
        #expect(keys["ava"]?.update == .all, "\(draft.yaml)")
        #expect(keys["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(draft.dangers > 0, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A single-row settings table keyed by a boolean that a check keeps true (`id boolean
    /// primary key default true check (id)`): the draft wrote `false`, the check refused
    /// every row, and an `update ... using (true)` showed as "cannot probe" (round thirty).
    @Test func aBooleanColumnACheckKeepsTrueGetsTrue() throws {
        let draft = try DraftRealProjectShapesTests.draft("setbooleankey", """
            create table public.app_config (
              id boolean primary key default true, settings jsonb not null default '{}', constraint one_row check (id));
            create table public.flags (on_duty boolean not null check (on_duty = true), note text not null default '');
            alter table public.app_config enable row level security;
            alter table public.flags enable row level security;
            create policy config_read on public.app_config for select to anon, authenticated using (true);
            create policy config_write on public.app_config for update to authenticated using (true);
            create policy flags_read on public.flags for select to authenticated using (true);
            """)
        #expect(!draft.yaml.contains("the draft's setup row was refused"), "\(draft.yaml)")
        #expect(Self.cells(draft, "app_config")["ava"]?.update == .all, "\(draft.yaml)")
        #expect(Self.cells(draft, "flags")["ava"]?.select == .all, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// `foreign key (game_id, team_id) references games (id, team_id)`: `game_id` had no
    /// key of its own, so it got a random uuid beside the persona's team, the key refused
    /// every play, and a delete policy of `using (true)` showed as nothing.
    @Test func aKeyOfSeveralColumnsTakesEveryValueFromOneRow() throws {
        let draft = try DraftRealProjectShapesTests.draft("setcomposite", """
            create table public.teams (id uuid primary key default gen_random_uuid(),
                                       created_by uuid not null default auth.uid() references auth.users (id));
            create table public.games (id uuid primary key default gen_random_uuid(),
                                       team_id uuid not null references public.teams (id), unique (id, team_id));
            create table public.plays (id uuid primary key default gen_random_uuid(),
                                       team_id uuid not null references public.teams (id), game_id uuid not null,
                                       foreign key (game_id, team_id) references public.games (id, team_id));
            alter table public.teams enable row level security;
            alter table public.games enable row level security;
            alter table public.plays enable row level security;
            create policy t on public.teams for all to authenticated using (created_by = auth.uid()) with check (created_by = auth.uid());
            create policy g on public.games for all to authenticated
              using (exists (select 1 from public.teams t where t.id = team_id and t.created_by = auth.uid()))
              with check (exists (select 1 from public.teams t where t.id = team_id and t.created_by = auth.uid()));
            create policy p_read on public.plays for select to authenticated using (true);
            create policy p_delete on public.plays for delete to authenticated using (true);
            """)
        let plays = Self.cells(draft, "plays")
        #expect(plays["ava"]?.select == .all, "\(draft.yaml)")
        #expect(plays["ava"]?.delete == .all, "\(draft.yaml)")
        #expect(draft.yaml.contains("DANGER"), "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A direct chat whose caller is always `user1_id` (its default, outside the
    /// role's `grant insert (id, user2_id)`), whose recipient may be NULL by the table
    /// but not by the insert policy. The probe left `user1_id` out and kept no column:
    /// `insert into public.dms () values ()`, a syntax error (42601) reported as what
    /// the API answers. Now the recipient is someone who is no persona, and the insert
    /// is the persona's own.
    @Test func aRowWhoseEverySampledColumnIsLeftToItsDefaultIsStillInserted() throws {
        let draft = try DraftRealProjectShapesTests.draft("setdms", """
            create table public.dms (
              id uuid primary key default gen_random_uuid(),
              user1_id uuid default auth.uid() references auth.users (id),
              user2_id uuid references auth.users (id),
              check (user1_id <> user2_id));
            alter table public.dms enable row level security;
            create policy dms_select on public.dms for select to authenticated using ((select auth.uid()) in (user1_id, user2_id));
            create policy dms_insert on public.dms for insert to authenticated with check (user2_id is not null);
            revoke insert on public.dms from authenticated;
            grant insert (id, user2_id) on public.dms to authenticated;
            create table public.pings (
              id bigint generated always as identity primary key,
              sender uuid not null default auth.uid() references auth.users (id));
            alter table public.pings enable row level security;
            create policy pings_own on public.pings for all to authenticated using (sender = auth.uid()) with check (sender = auth.uid());
            revoke insert on public.pings from authenticated;
            grant insert (id) on public.pings to authenticated;
            """)
        #expect(Self.cells(draft, "dms")["ava"]?.insert == .own, "\(draft.yaml)")
        // Every column of the sample left to its default: `default values`.
        #expect(Self.cells(draft, "pings")["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(!draft.report.results.contains { $0.observed.contains("42601") }, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Team names unique case-insensitively, by an index on an expression
    /// (`unique (lower(btrim(name)))`), not a UNIQUE constraint: both personas' teams
    /// were named 'Draft name', the second was dropped by ON CONFLICT, both personas sat
    /// in one team, and each saw the other's membership: a made-up DANGER (a sports
    /// clubs app, about 14 of them).
    @Test func aColumnOfAUniqueExpressionIndexGetsAValuePerPersona() throws {
        let draft = try DraftRealProjectShapesTests.draft("setexprunique", """
            create table public.teams (id uuid primary key default gen_random_uuid(), name text not null);
            create unique index teams_name_unique on public.teams (lower(btrim(name)));
            create table public.team_members (
              team_id uuid not null references public.teams (id) on delete cascade,
              user_id uuid not null references auth.users (id) on delete cascade, primary key (team_id, user_id));
            alter table public.teams enable row level security;
            alter table public.team_members enable row level security;
            create function public.in_team(t uuid) returns boolean language sql stable security definer set search_path = ''
              as $$ select exists (select 1 from public.team_members where team_id = t and user_id = auth.uid()) $$;
            create policy teams_read on public.teams for select using (true);
            create policy members_read on public.team_members for select to authenticated
              using (user_id = auth.uid() or public.in_team(team_id));
            """)
        let members = Self.cells(draft, "team_members")
        #expect(members["ava"]?.select == .own, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("team_members") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Check-ins that name their user, read by the members of the event's organisation,
    /// with no policy on the user: the setup made one row, ava's, so ava's read of every
    /// row there was was a read of her own row, drafted `all` with a made-up DANGER
    /// ("sees every user's rows") and ben's `none`. Each persona now has a row.
    @Test func aTableNamingItsUserGetsARowPerPersonaWithoutAnOwnerRule() throws {
        let draft = try DraftRealProjectShapesTests.draft("setcheckins", """
            create table public.orgs (id uuid primary key default gen_random_uuid(), name text not null);
            create table public.members (
              org_id uuid not null references public.orgs (id), user_id uuid not null references auth.users (id),
              primary key (org_id, user_id));
            create table public.events (id uuid primary key default gen_random_uuid(), org_id uuid not null references public.orgs (id),
                                        created_by uuid not null references auth.users (id));
            create table public.checkins (id uuid primary key default gen_random_uuid(),
                                          event_id uuid not null references public.events (id), user_id uuid not null references auth.users (id));
            alter table public.orgs enable row level security;
            alter table public.members enable row level security;
            alter table public.events enable row level security;
            alter table public.checkins enable row level security;
            create function public.in_org(o uuid) returns boolean language sql stable security definer set search_path = ''
              as $$ select exists (select 1 from public.members where org_id = o and user_id = auth.uid()) $$;
            create policy orgs_read on public.orgs for select to authenticated using (public.in_org(id));
            create policy members_read on public.members for select to authenticated using (user_id = auth.uid());
            create policy events_read on public.events for select to authenticated using (public.in_org(org_id));
            create policy checkins_read on public.checkins for select to authenticated
              using (exists (select 1 from public.events e where e.id = checkins.event_id and public.in_org(e.org_id)));
            """)
        let checkins = Self.cells(draft, "checkins")
        #expect(checkins["ava"]?.select == checkins["ben"]?.select, "\(draft.yaml)")
        #expect(checkins["ava"]?.select != .all, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("checkins") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A unique `key_hash bytea`: both personas' rows had the same bytes, ON CONFLICT
    /// dropped ben's, and ava, the only owner, was drafted "sees other users' rows"
    /// under an own-rows policy (a QR-code app's API keys).
    @Test func aUniqueByteaColumnGetsBytesPerPersona() throws {
        let draft = try DraftRealProjectShapesTests.draft("setbyteaunique", """
            create table public.api_keys (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id), key_hash bytea not null);
            create unique index api_keys_hash on public.api_keys (key_hash);
            alter table public.api_keys enable row level security;
            create policy own on public.api_keys for all to authenticated using (owner_id = auth.uid()) with check (owner_id = auth.uid());
            """)
        let keys = Self.cells(draft, "api_keys")
        #expect(keys["ava"]?.select == .own, "\(draft.yaml)")
        #expect(keys["ben"]?.select == .own, "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Settings per project, read through the project's own policy (`exists (select 1
    /// from public.projects p where p.id = project_id)`, no auth.uid()): one settings row,
    /// ava's, made her read "every row" and both personas' writes "every row" (made-up
    /// DANGERs; a planning app). The row is the persona's where its project is: each
    /// persona has one, and the owner rule goes through the project.
    @Test func aRowReadThroughItsParentsPolicyIsThePersonasWhereItsParentIs() throws {
        let draft = try DraftRealProjectShapesTests.draft("setthroughparent", """
            create table public.projects (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id), name text not null default 'p');
            alter table public.projects enable row level security;
            create policy owners on public.projects for all using (owner_id = auth.uid()) with check (owner_id = auth.uid());
            create table public.project_settings (id uuid primary key default gen_random_uuid(),
              project_id uuid not null unique references public.projects (id) on delete cascade, theme text);
            alter table public.project_settings enable row level security;
            create policy through_projects on public.project_settings for all
              using (exists (select 1 from public.projects p where p.id = project_settings.project_id));
            """)
        let settings = try #require(draft.plan.relations.first { $0.name == "project_settings" })
        #expect(settings.owner?.contains("public.projects") == true, "\(draft.yaml)")
        #expect(settings.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(settings.access["ben"] == settings.access["ava"], "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// `check (ends_at > starts_at)` (and the same spelt with `<`, on dates): both
    /// columns got now, every setup row was refused, and an appointments table's cells
    /// were "cannot probe". The later column gets a later value. On times of day too
    /// (`end_time > start_time`: both `current_time`, a clinic's calendar blocks; round
    /// forty-one): nine and ten o'clock, which no midnight wraps.
    @Test func aColumnACheckWantsLaterGetsALaterValue() throws {
        let draft = try DraftRealProjectShapesTests.draft("laterthan", """
            create table public.slots (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users on delete cascade,
              starts_at timestamptz not null, ends_at timestamptz not null,
              first_day date not null, last_day date not null, start_time time not null, end_time time not null,
              constraint ends_after_start check (ends_at > starts_at), constraint days check (first_day < last_day),
              constraint times check (end_time > start_time));
            alter table public.slots enable row level security;
            create policy "own slots" on public.slots for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            """)
        let slots = try #require(draft.plan.relations.first { $0.name == "slots" })
        #expect(slots.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A budget per user and month whose date must be the month's first (`check (month =
    /// date_trunc('month', month)::date)`): the setup's `current_date + n` was refused
    /// every day, the insert sample's `current_date` passed on the 1st only, so a drafted
    /// plan passed one day and failed the next (a personal finance app; round
    /// thirty-nine). A date a check asks to start a period is the start of one.
    @Test func aDateThatMustStartAMonthStartsOne() throws {
        let draft = try DraftRealProjectShapesTests.draft("monthstart", """
            create table public.monthly_budgets (user_id uuid not null default auth.uid() references auth.users (id),
              month date not null check (month = date_trunc('month', month)::date), amount numeric not null default 0,
              primary key (user_id, month));
            alter table public.monthly_budgets enable row level security;
            create policy "own" on public.monthly_budgets for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "monthly_budgets", ava: Access(select: .own, insert: .own, update: .own, delete: .own))
        #expect(draft.yaml.contains("month: \"date_trunc('month', current_date)::date\""), "\(draft.yaml)")
    }

    /// Bookings whose check spans two columns (`check (kind <> 'table' or area is not
    /// null)`, `kind` 'table' by default): the setup left `area` NULL, every booking was
    /// refused, and a definer function rewriting any booking "changed nothing", a WARN (a
    /// booking platform; round thirty-nine). A column a pair check asks not to be NULL
    /// gets a value.
    @Test func aColumnAPairCheckAsksForIsGiven() throws {
        let draft = try DraftRealProjectShapesTests.draft("paircheck", """
            create table public.bookings (id uuid primary key default gen_random_uuid(),
              user_id uuid not null default auth.uid() references auth.users (id),
              kind text not null default 'table', area text,
              constraint table_needs_area check (kind <> 'table' or area is not null));
            alter table public.bookings enable row level security;
            create policy "own" on public.bookings for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "bookings", ava: Access(select: .own, insert: .own, update: .own, delete: .own))
        // Not where another branch wants it NULL beside the default (a room's
        // `deactivated_at`, NULL while its status is 'active').
        let rooms = try DraftRealProjectShapesTests.draft("paircheckboth", """
            create table public.rooms (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id),
              status text not null default 'active', deactivated_at timestamptz,
              check ((status = 'active' and deactivated_at is null) or (status = 'deactivated' and deactivated_at is not null)));
            alter table public.rooms enable row level security;
            create policy "own" on public.rooms for all to authenticated using (owner_id = auth.uid()) with check (owner_id = auth.uid());
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            rooms, table: "rooms", ava: Access(select: .own, insert: .own, update: .own, delete: .own))
        // Nor an either-or (a member's booking or a guest's).
        let bookings = try DraftRealProjectShapesTests.draft("paircheckxor", """
            create table public.bookings (id uuid primary key default gen_random_uuid(),
              member_id uuid default auth.uid() references auth.users (id), guest_name text,
              check ((member_id is not null) <> (guest_name is not null and btrim(guest_name) <> '')));
            alter table public.bookings enable row level security;
            create policy "own" on public.bookings for all to authenticated using (member_id = auth.uid()) with check (member_id = auth.uid());
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            bookings, table: "bookings", ava: Access(select: .own, insert: .own, update: .own, delete: .own))
        // Nor where another check ties it to a column left NULL (a latitude without its longitude).
        let places = try DraftRealProjectShapesTests.draft("paircheckpin", """
            create table public.places (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id),
              map_visible boolean not null default true, lat numeric, lng numeric,
              check ((lat is null) = (lng is null)), check (not map_visible or lat is not null));
            alter table public.places enable row level security;
            create policy "own" on public.places for all to authenticated using (owner_id = auth.uid()) with check (owner_id = auth.uid());
            """)
        #expect(places.plan.relations.first { $0.name == "places" }?.sample.contains { $0.column == "lat" } != true, "\(places.yaml)")
    }
}
