import Testing
import WardenKit

/// Setup rows made one persona at a time, with each persona's claims, because a
/// trigger of the table reads the signed-in user (`tablesWithUserReadingTriggers`).
@Suite struct DraftPerPersonaSetupTests {
    /// A unique column's per-persona value: `row_number()` over a one-user select was 1
    /// for both, ben's row collided and was dropped, and ava's read of the only row was
    /// "all", a made-up DANGER on a private documents table (a coaching app, round
    /// thirty-four).
    @Test func aUniqueColumnGetsEachPersonasOwnValue() throws {
        let draft = try DraftRealProjectShapesTests.draft("perpersonaunique", """
            create table public.docs (
              id uuid primary key default gen_random_uuid(), user_id uuid not null references auth.users,
              path text not null unique);
            alter table public.docs enable row level security;
            create policy docs_own on public.docs for all using (user_id = auth.uid()) with check (user_id = auth.uid());
            create function public.docs_stamp() returns trigger language plpgsql as $$
            begin
              if auth.uid() is null then raise exception 'sign in first'; end if;
              return new;
            end $$;
            create trigger docs_stamp before insert on public.docs for each row execute function public.docs_stamp();
            """)
        let docs = try #require(draft.plan.relations.first { $0.name == "docs" })
        #expect(docs.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(docs.access["ben"]?.select == .own, "\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
    }

    /// An organisation whose insert trigger makes its creator an admin through another
    /// table's column default (`insert into members (org, role) values (new.slug,
    /// 'admin')`, `members.user_id default auth.uid() not null`): made by the admin with
    /// no claims, the member row broke the NOT NULL, and no organisation, nor anything
    /// keyed by one, had rows (an HR app: 562 of 1048 probes; round thirty-nine). Such
    /// a trigger's table is set up as each persona, as its own insert would be.
    @Test func aTriggerFillingAUserDefaultIsRunAsEachPersona() throws {
        let draft = try DraftRealProjectShapesTests.draft("triggeruserdefault", """
            create table public.orgs (id bigint generated always as identity primary key, slug text not null unique);
            create table public.members (id bigint generated always as identity primary key,
              user_id uuid not null default auth.uid() references auth.users (id),
              org text not null references public.orgs (slug), role text not null default 'member');
            create function public.org_creator_is_admin() returns trigger language plpgsql security definer set search_path = public as $$
            begin insert into public.members (org, role) values (new.slug, 'admin'); return new; end $$;
            create trigger org_creator_is_admin after insert on public.orgs for each row execute function public.org_creator_is_admin();
            create table public.payslips (id bigint generated always as identity primary key,
              org text not null references public.orgs (slug), amount int not null);
            alter table public.orgs enable row level security;
            alter table public.members enable row level security;
            alter table public.payslips enable row level security;
            create policy "add" on public.orgs for insert to authenticated with check (true);
            create policy "read" on public.orgs for select to authenticated
              using (exists (select 1 from public.members m where m.org = slug and m.user_id = auth.uid()));
            create policy "read" on public.members for select to authenticated using (user_id = auth.uid());
            create policy "members" on public.payslips for all to authenticated
              using (exists (select 1 from public.members m where m.org = payslips.org and m.user_id = auth.uid()))
              with check (exists (select 1 from public.members m where m.org = payslips.org and m.user_id = auth.uid()));
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "payslips", ava: Access(select: .own, insert: .own, update: .own, delete: .own))
    }

    /// One team a migration made before any user, the personas' profiles pointing into
    /// teams: both were put in it, so "sees other users' rows" was made up six times on
    /// a helpdesk, and two real holes went unseen (any user moving their profile into
    /// another team; writing into another user's ticket's log). A parent with fewer rows
    /// than personas gets one per persona, as an empty one does.
    @Test func aParentWithOneSeededRowGivesEachPersonaItsOwn() throws {
        let draft = try DraftRealProjectShapesTests.draft("seededteam", """
            create table public.teams (id uuid primary key default gen_random_uuid(), name text not null unique);
            insert into public.teams (name) values ('Existing team');
            create table public.profiles (id uuid primary key references auth.users (id), team_id uuid references public.teams (id));
            create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = public as $$
            begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
            create function public.is_teammate(other uuid) returns boolean language sql security definer stable set search_path = public as $$
              select exists (select 1 from profiles a join profiles b on a.team_id = b.team_id
                             where a.id = auth.uid() and b.id = other and a.team_id is not null) $$;
            create table public.tickets (
              id bigserial primary key, title text not null, creator_id uuid not null references public.profiles (id),
              is_private boolean not null default true);
            alter table public.profiles enable row level security;
            alter table public.teams enable row level security;
            alter table public.tickets enable row level security;
            create policy teams_select on public.teams for select to authenticated using (true);
            create policy profiles_select on public.profiles for select to authenticated using (id = auth.uid() or public.is_teammate(id));
            create policy profiles_update on public.profiles for update to authenticated using (id = auth.uid()) with check (id = auth.uid());
            create policy tickets_select on public.tickets for select to authenticated
              using (creator_id = auth.uid() or not is_private or public.is_teammate(creator_id));
            create policy tickets_insert on public.tickets for insert to authenticated with check (creator_id = auth.uid());
            """)
        for name in ["profiles", "tickets"] {
            let relation = try #require(draft.plan.relations.first { $0.name == name })
            #expect(relation.access["ava"]?.select == .own, "\(name)")
        }
        #expect(!draft.dangerCells.contains { $0.contains("sees other users' rows") }, "\(draft.dangerCells)")
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava moves a public.profiles row of ava's into a public.teams row of ben's",
            danger: "public.profiles · ava: a signed-in user may move themselves into another user's public.teams rows")
    }
}
