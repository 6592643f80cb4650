import Foundation
import Testing
import WardenKit
import TestSupport

/// Organisations whose rule reads a membership table that has no owner rule of its own
/// (its policy calls a helper that calls another that reads the user) and whose user
/// column references the app's own user table (`members.user_id -> profiles.id ->
/// auth.users`), as a SaaS starter has it. The draft gave the members
/// table one shared row without a user (only a table with an owner rule got a row per
/// persona), so no organisation was anyone's and 20 of the drafted plan's own cells
/// could not be probed. A table whose foreign keys another table's policies read now
/// gets a row per persona, each pointing at the persona's rows; and a role's number is
/// not made different per persona (ben's larger one outranked every member).
@Suite struct DraftLinkTableTests {
    static let schema = """
        create table public.profiles (id uuid primary key references auth.users on delete cascade, name text);
        create table public.orgs (id bigint generated always as identity primary key, name text not null);
        create table public.members (
          id bigint generated always as identity primary key,
          user_id uuid references public.profiles on delete cascade,
          org_id bigint not null references public.orgs on delete cascade,
          role int not null,
          unique (user_id, org_id));
        create function public.my_org_ids() returns setof bigint language sql stable security definer
          set search_path = '' as $$ select org_id from public.members where user_id = auth.uid() $$;
        create function public.in_my_org(o bigint) returns boolean language sql stable
          set search_path = '' as $$ select o in (select public.my_org_ids()) $$;
        alter table public.profiles enable row level security;
        alter table public.orgs enable row level security;
        alter table public.members enable row level security;
        create policy "own profile" on public.profiles for select to authenticated using (id = auth.uid());
        create policy "members read their org's members" on public.members for select to authenticated
          using (public.in_my_org(org_id));
        create policy "members read their orgs" on public.orgs for select to authenticated
          using (id in (select m.org_id from public.members m where m.user_id = auth.uid()));
        grant select on public.profiles, public.members to authenticated;
        grant select on public.orgs to authenticated;
        """

    @Test func eachPersonaIsAMemberOfAnOrganisationOfItsOwn() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("linktable").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        let setup = draft.plan.setup.joined(separator: "\n")
        #expect(setup.contains("insert into public.members (user_id, org_id, role)"), "\(setup)")
        #expect(!setup.contains("where not exists (select 1 from public.members)"), "\(setup)")
        // Both personas hold the same role number.
        #expect(!setup.contains("(select count(*) from public.members) +"), "\(setup)")
        let orgs = try #require(draft.plan.relations.first { $0.name == "orgs" })
        #expect(orgs.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(orgs.access["ben"]?.select == .own, "\(draft.yaml)")
        #expect(!draft.dangerCells.contains { $0.contains("orgs") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// With an update policy through the same membership: no column of `orgs` says
    /// whose an organisation is (its id is an identity), so no update of `orgs` can give
    /// one to another user. The move probe said "cannot probe", and the draft failed its
    /// own run on both personas' `update: own` (makerkit: 134 of 136); it is now refused.
    @Test func anOrganisationCannotBeMovedByUpdatingIt() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("linkmove").project)
        try connection.execute(unsafeScript: Self.schema + """

            create policy "members rename their orgs" on public.orgs for update to authenticated
              using (id in (select m.org_id from public.members m where m.user_id = auth.uid()));
            grant update on public.orgs to authenticated;
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let orgs = try #require(draft.plan.relations.first { $0.name == "orgs" })
        #expect(orgs.access["ava"] == Access(select: .own, insert: .nothing, update: .own, delete: .nothing), "\(draft.yaml)")
        let move = try #require(draft.report.results.first { $0.subject == "public.orgs" && $0.persona == "ava" && $0.probe == "move own row to another user" })
        #expect(move.passed)
        #expect(move.observed.hasPrefix("refused: the owner rule reads no column an update may write"), "\(move.observed)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// A draft that fails its own run (the same organisations with an id an update may
    /// write, and memberships that let go of it, `on update set null`, so moving one is
    /// a question the sample cannot ask): `plan draft` says how many probes fail, where
    /// it said only "some cells could not be stated".
    @Test func aDraftThatFailsItsOwnRunSaysHowMuch() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("draftfails").project)
        let schema = Self.schema.replacingOccurrences(
            of: "create table public.orgs (id bigint generated always as identity primary key",
            with: "create table public.orgs (id bigint generated by default as identity primary key")
            .replacingOccurrences(
                of: "org_id bigint not null references public.orgs on delete cascade,",
                with: "org_id bigint references public.orgs on delete cascade on update set null,")
        try connection.execute(unsafeScript: schema + """

            create policy "members rename their orgs" on public.orgs for update to authenticated
              using (id in (select m.org_id from public.members m where m.user_id = auth.uid()));
            grant update on public.orgs to authenticated;
            """)
        let url = try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: "postgres")
        let drafted = try PgwardenCLI.run(["plan", "draft", "--database-url", url])
        #expect(drafted.status == 0, "\(drafted.all)")
        #expect(drafted.standardError.contains(" marked DANGER, "), "\(drafted.all)")
        #expect(drafted.standardError.contains("; pgwarden test fails 2 of "), "\(drafted.all)")
        #expect(drafted.standardError.contains(" probes with it: the cells marked NOTE could not be stated"), "\(drafted.all)")
    }

    /// A child owned only through a link table (`kids` through `parent_kids`, whose
    /// foreign key holds the kid's id), with an update policy left open: a kid's id may
    /// be written, but ava's own link keeps pointing at it (a new id is refused by the
    /// link's key, another kid's collides), so no update of `kids` gives one to ben. The
    /// move probe said "cannot probe" and the draft failed its own run on both personas
    /// (a trial's family app); it is refused now. A link whose key lets go of the row
    /// (`on update set null`) still leaves the question open.
    @Test func aChildOwnedThroughALinkTableCannotBeMovedByUpdatingIt() throws {
        let schema = """
            create table public.parents (id uuid primary key default gen_random_uuid(),
              user_id uuid references auth.users (id), name text not null);
            create table public.kids (id uuid primary key default gen_random_uuid(), name text not null);
            create table public.parent_kids (
              parent_id uuid not null references public.parents (id) on delete cascade,
              kid_id uuid references public.kids (id) on delete cascade KID_ON_UPDATE,
              unique (parent_id, kid_id));
            alter table public.parents enable row level security;
            alter table public.kids enable row level security;
            alter table public.parent_kids enable row level security;
            create policy "own parent row" on public.parents for select using (user_id = auth.uid());
            create policy "own links" on public.parent_kids for select
              using (parent_id in (select id from public.parents where user_id = auth.uid()));
            create policy "own kids" on public.kids for select
              using (id in (select kid_id from public.parent_kids
                            where parent_id in (select id from public.parents where user_id = auth.uid())));
            create policy "anyone updates kids" on public.kids for update using (true);
            """
        for (action, refused) in [("", true), ("on update cascade", true), ("on update set null", false)] {
            let connection = try Connection(try TestCluster.newTwinDatabase("kidsmove").project)
            try connection.execute(unsafeScript: schema.replacingOccurrences(of: "KID_ON_UPDATE", with: action))
            let draft = try PlanDrafter(connection: connection).draft()
            let kids = try #require(draft.plan.relations.first { $0.name == "kids" })
            #expect(kids.access["ava"] == Access(select: .own, insert: .nothing, update: .own, delete: .nothing), "\(draft.yaml)")
            let move = try #require(draft.report.results.first {
                $0.subject == "public.kids" && $0.persona == "ava" && $0.probe == "move own row to another user"
            })
            #expect(move.passed == refused, "\(action): \(move.observed)")
            #expect(move.observed.hasPrefix(
                "refused: the owner rule reads no column an update may write, but a key that tables it names hold") == refused,
                "\(action): \(move.observed)")
            #expect(draft.verified == refused, "\(action): \(draft.report.failures.map { "\($0.name): \($0.observed)" })")
        }
    }

    /// Any signed-in user creating an organisation (`for insert to authenticated with
    /// check (true)`), a trigger making its creator the member: the row names no user,
    /// so the probe of "another user's row" inserted the same row as the own one, and
    /// both it and lint's always-true probe called it "may insert other users' rows" (a
    /// messaging API). A row the sample cannot tell from the persona's own is never
    /// another user's: ava's insert is `own`, and lint's insert into a group its members
    /// own is not tried.
    @Test func anOrganisationAUserCreatesIsTheirOwn() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("orgcreate").project)
        try connection.execute(unsafeScript: DraftMembershipThroughFunctionTests.uuidOrgsAndMembers + """

            alter table public.orgs enable row level security;
            alter table public.members enable row level security;
            create function public.is_member(o uuid) returns boolean language sql stable security definer set search_path = ''
              as $$ select exists (select 1 from public.members m where m.org_id = o and m.user_id = auth.uid()) $$;
            create function public.add_creator() returns trigger language plpgsql security definer set search_path = '' as $$
            begin
              if auth.uid() is not null then
                insert into public.members (org_id, user_id, role) values (new.id, auth.uid(), 'owner');
              end if;
              return new;
            end $$;
            create trigger add_creator after insert on public.orgs for each row execute function public.add_creator();
            create policy "users create orgs" on public.orgs for insert to authenticated with check (true);
            create policy "members read their orgs" on public.orgs for select using (public.is_member(id));
            create policy "members read their memberships" on public.members for select using (public.is_member(org_id));
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let orgs = try #require(draft.plan.relations.first { $0.name == "orgs" })
        #expect(orgs.access["ava"] == Access(select: .own, insert: .own, update: .nothing, delete: .nothing), "\(draft.yaml)")
        let other = try #require(draft.report.results.first {
            $0.subject == "public.orgs" && $0.persona == "ava" && $0.probe == "insert another user's row"
        })
        #expect(other.passed && other.observed.hasPrefix("refused: the sample gives both users the same values"), "\(other.observed)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        let always = try #require(draft.findings.findings.first { $0.rule == .rlsPolicyAlwaysTrue && $0.subject == "public.orgs" })
        #expect(!always.isDanger, "\(always.consequence?.evidence ?? [])")
        #expect(always.consequence?.evidence == [
            "ava's insert into public.orgs names no user: its rows are their members' (public.members), so a new row is no other user's (not tried)",
        ])
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// The same group table, its insert policy `with check (true)` for PUBLIC: anon meets
    /// it too, and a room anon creates is no member's. lint said HARMLESS ("names no
    /// user", not tried) where dev said "anon may insert", a DANGER (a social app's
    /// conversations, round thirty-five). Tried as anon, it is proven.
    @Test func aGroupAnyoneMayCreateIsProvenAsAnon() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("orgpublic").project)
        try connection.execute(unsafeScript: DraftMembershipThroughFunctionTests.uuidOrgsAndMembers + """

            alter table public.orgs enable row level security;
            alter table public.members enable row level security;
            create policy "anyone creates orgs" on public.orgs for insert with check (true);
            create policy "members read their orgs" on public.orgs for select
              using (exists (select 1 from public.members m where m.org_id = id and m.user_id = auth.uid()));
            create policy "members read their memberships" on public.members for select using (user_id = auth.uid());
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        let always = try #require(draft.findings.findings.first { $0.rule == .rlsPolicyAlwaysTrue && $0.subject == "public.orgs" })
        #expect(always.isDanger, "\(always.consequence?.evidence ?? [])")
        #expect(always.consequence?.evidence.first == "anon inserted a row of public.orgs without signing in")
        #expect(always.consequence?.personas == ["anon"])
        #expect(draft.dangerCells.contains { $0.hasPrefix("public.orgs · anon: anon (no sign-in) may insert") }, "\(draft.dangerCells)")
        #expect(try connection.query("select count(*)::text from public.orgs").scalar == "0")
    }
}
