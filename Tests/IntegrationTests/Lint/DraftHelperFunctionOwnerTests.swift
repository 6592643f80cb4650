import Foundation
import Testing
import WardenKit
import TestSupport

/// Policies that keep ownership in a helper function (`using (public.is_board_owner(board_id))`,
/// as Supabase's RLS guide recommends) give the draft an owner rule, the policy's call:
/// a signed-in user's rows of `pins` are its own, not "every row", so the plan-less run
/// shows no made-up DANGER (maxemitchell/emittance-fields). A helper called without
/// the row's columns (`is_admin()`) says nothing about which rows, and is not taken.
@Suite struct DraftHelperFunctionOwnerTests {
    static let schema = """
        create table public.boards (id bigint generated always as identity primary key,
          owner_id uuid not null default auth.uid() references auth.users, title text not null);
        alter table public.boards enable row level security;
        create policy "own boards" on public.boards for all to authenticated
          using (owner_id = auth.uid()) with check (owner_id = auth.uid());
        create function public.is_board_owner(board bigint) returns boolean
          language sql stable security definer set search_path = '' as $$
          select exists (select 1 from public.boards b where b.id = board and b.owner_id = auth.uid()) $$;
        create table public.pins (id bigint generated always as identity primary key,
          board_id bigint not null references public.boards, note text not null);
        alter table public.pins enable row level security;
        create policy "pins of own boards" on public.pins for all to authenticated
          using (public.is_board_owner(board_id)) with check (public.is_board_owner(board_id));
        create function public.is_admin() returns boolean language sql stable as $$
          select coalesce(auth.jwt() -> 'app_metadata' ->> 'admin', 'false')::boolean $$;
        create table public.settings (id bigint generated always as identity primary key, value text not null);
        alter table public.settings enable row level security;
        create policy "admins" on public.settings for all to authenticated using (public.is_admin());
        """

    @Test func aPolicyHelperThatReadsTheUserIsTheOwnerRule() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("helperowner")
        let connection = try Connection(project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.yaml.contains(#"owner: "public.is_board_owner(board_id)""#), "\(draft.yaml)")
        #expect(!draft.yaml.contains(#"owner: "public.is_admin()""#), "\(draft.yaml)")
        // The plan-less run: each user's pins are its own (s, i, u, d), no DANGER for them.
        let cluster = try TestCluster.cluster
        let url = cluster.url(database: project.parameters["dbname"] ?? "", user: cluster.projectUser)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("helperowner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try DatabaseDigest.ofDatabase(try Connection(admin))
        let run = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        let pins = run.standardOutput.split(separator: "\n").first { $0.hasPrefix("public.pins ") }.map(String.init) ?? ""
        #expect(pins.split(separator: " ").filter { !$0.isEmpty }.map(String.init)
            == ["public.pins", "····", "✓", "siud", "✓", "siud", "✓", "SIUD", "✓"], "\(run.all)")
        #expect(!run.standardOutput.contains("DANGER public.pins"), "\(run.all)")
        #expect(try DatabaseDigest.ofDatabase(try Connection(admin)) == before)
    }

    /// A helper given the whole row (`using (public.can_edit(auth.uid(), docs.*))`, as a
    /// study platform writes it), reading `owner_id default auth.uid()` of a table keyed
    /// by profiles: the policy reads no single column, so it was taken for a check of who
    /// the user is; the draft had no owner rule, its setup left `owner_id` NULL (refused),
    /// and dev showed "may insert every row" (round thirty). It is the owner rule now,
    /// each persona gets a row, and each user's docs are its own. What the helper's body
    /// matches rows on (the caller's profile e-mail) is a value a user may claim.
    @Test func aHelperGivenTheWholeRowIsTheOwnerRule() throws {
        let draft = try DraftRealProjectShapesTests.draft("wholerowhelper", DraftTwoUserRowsTests.profilesAndSharedDocs + """
            create function public.can_edit(_user uuid, d public.docs) returns boolean language sql stable set search_path = '' as $$
              select d.owner_id = _user or (select p.email from public.profiles p where p.id = _user) = any (d.collaborator_emails) $$;
            alter table public.profiles enable row level security;
            alter table public.docs enable row level security;
            create policy own_profile on public.profiles to authenticated using (id = auth.uid());
            create policy editors on public.docs to authenticated using (public.can_edit(auth.uid(), docs.*));
            """)
        #expect(draft.yaml.contains(#"owner: "public.can_edit(auth.uid(), docs.*)""#), "\(draft.yaml)")
        #expect(!draft.yaml.contains("the draft's setup row was refused"), "\(draft.yaml)")
        let docs = try #require(draft.plan.relations.first { $0.name == "docs" })
        #expect(docs.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(docs.access["ben"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.hasPrefix("public.docs") }, "\(draft.dangerCells)")
        // The helper compares the caller's profile e-mail with the document's: a profile
        // whose e-mail its user may rewrite is a claim of another user's documents, found
        // in the helper's body (the policy's text names no profile: no check was made).
        #expect(draft.plan.checks.contains { $0.name == "ava sets the email of its own public.profiles row to ben's" },
                "\(draft.yaml)")
        #expect(draft.dangerCells.contains {
            $0.hasPrefix("public.profiles · ava: a signed-in user may claim another user's email in public.profiles, "
                + "which public.docs's policies match rows on")
        }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A helper that reads the user only through a second helper
    /// (`in_team_of_serial(serial)` calling `in_team(team_id)`, as a device fleet's
    /// `is_auth_in_org_of_alias` calls `is_auth_member_of_org`): it was not taken for a
    /// helper reading the user, no owner rule was drafted, and dev made up "may insert,
    /// update, delete every row" for each user (round thirty-five). It is the owner rule
    /// now, and each user's rows are its own.
    @Test func aHelperReadingTheUserThroughAnotherIsTheOwnerRule() throws {
        let draft = try DraftRealProjectShapesTests.draft("nestedhelper", DraftRealProjectShapesTests.teamsAndMembers + """
            create table public.gadgets (id uuid primary key default gen_random_uuid(),
              team_id uuid not null references public.teams on delete cascade, serial uuid not null unique default gen_random_uuid());
            create table public.gadget_state (serial uuid primary key references public.gadgets (serial) on delete cascade,
              state jsonb not null default '{}');
            alter table public.gadgets enable row level security;
            alter table public.gadget_state enable row level security;
            create function public.in_team_of_serial(s uuid) returns boolean language sql security definer set search_path = '' stable as $$
              select public.in_team((select g.team_id from public.gadgets g where g.serial = s)) $$;
            create policy gadgets_member on public.gadgets for all to authenticated
              using (public.in_team(team_id)) with check (public.in_team(team_id));
            create policy state_member on public.gadget_state for all to authenticated
              using (public.in_team_of_serial(serial)) with check (public.in_team_of_serial(serial));
            """)
        #expect(draft.yaml.contains(#"owner: "public.in_team_of_serial(serial)""#), "\(draft.yaml)")
        let state = try #require(draft.plan.relations.first { $0.name == "gadget_state" })
        #expect(state.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(state.access["ben"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.hasPrefix("public.gadget_state") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
