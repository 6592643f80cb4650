import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// Posts everyone may read once published, and their authors always: anon reads the
/// published rows, a signed-in user those and their own. Neither all nor own: the
/// draft wrote `none` with a NOTE (a plan that failed its own run), and the matrix
/// showed `·` ("none") over a real read. Now such a read is `some` (`~`), and a plan
/// that says `some` fails when a change shows every row, or none.
@Suite struct DraftSomeRowsTests {
    static let schema = """
        create table public.posts (
          id int generated always as identity primary key,
          author_id uuid references auth.users on delete cascade default auth.uid(),
          published boolean not null default false, body text);
        alter table public.posts enable row level security;
        create policy "published or own" on public.posts for select to anon, authenticated
          using (published or author_id = (select auth.uid()));
        grant select on public.posts to anon, authenticated;
        insert into public.posts (published, body) values (true, 'hello'), (false, 'draft');
        """

    @Test func aReadOfPublishedRowsIsSome() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("somerows").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        let posts = try #require(draft.plan.relations.first { $0.name == "posts" })
        #expect(posts.access["anon"]?.select == .someRows, "\(draft.yaml)")
        #expect(posts.access["ava"]?.select == .someRows, "\(draft.yaml)")
        #expect(draft.yaml.contains("anon: { select: some }"), "\(draft.yaml)")
        #expect(!draft.yaml.contains("neither all"), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
        let matrix = MatrixReport(draft.report).render()
        #expect(matrix.contains("public.posts  ~··· ✓"), "\(matrix)")

        // Every row shown: anon now reads all of them (two seeded, one per persona, and
        // ava's published one), and `some` fails.
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        try connection.execute("""
            drop policy "published or own" on public.posts;
            create policy "everything" on public.posts for select to anon, authenticated using (true)
            """)
        let widened = try AccessPlanRunner(connection: connection, plan: drafted).run()
        let read = widened.failures.first { $0.persona == "anon" && $0.probe == "select" }
        #expect(read?.observed == "all (5 rows)", "\(widened.failures.map { "\($0.name): \($0.observed)" })")
        // anon owns no row (no user): its expectation names none.
        #expect(read?.expected == "some (at least one row, neither all (5))", "\(String(describing: read))")
        // Only the own rows shown: anon reads nothing, and `some` fails too.
        try connection.execute("""
            drop policy "everything" on public.posts;
            create policy "own" on public.posts for select to anon, authenticated using (author_id = (select auth.uid()))
            """)
        let closed = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(closed.failures.contains { $0.persona == "anon" && $0.probe == "select" && $0.observed == "none (0 rows)" },
                "\(closed.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Profiles made private at sign-up (`is_public default false`), one per user, anon
    /// reading the public ones: the first persona's shown row collided with her own
    /// profile and was dropped, no row was public, and anon's read of public profiles was
    /// drafted `none` (round thirty-nine's note). The shown profile is the stand-in's.
    @Test func aPrivateByDefaultProfileIsShownByTheStandIn() throws {
        let draft = try DraftRealProjectShapesTests.draft("shownstandin", """
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade,
              display_name text, is_public boolean not null default false);
            alter table public.profiles enable row level security;
            create policy "read" on public.profiles for select to anon, authenticated using (is_public or id = auth.uid());
            create policy "own" on public.profiles for update to authenticated using (id = auth.uid());
            create function public.on_signup() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.profiles (id) values (new.id); return new; end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            """)
        let profiles = try #require(draft.plan.relations.first { $0.name == "profiles" })
        #expect(profiles.access["anon"]?.select == .someRows, "\(draft.yaml)")
        #expect(profiles.access["ava"]?.select == .someRows && profiles.access["ben"]?.select == .someRows, "\(draft.yaml)")
        #expect(profiles.access["ava"]?.update == .own, "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// A helper named like a boolean column (`user_id = auth.uid() or is_admin()`, where
    /// `is_admin()` reads `profiles.is_admin`) is a call, not the column: the shown row
    /// gave ava a profile with `is_admin = true`, and every table behind `is_admin()` a
    /// made-up DANGER (round twenty-six).
    @Test func aHelperCallIsNotTheColumnItIsNamedLike() throws {
        let draft = try DraftRealProjectShapesTests.draft("adminhelper", """
            create table public.profiles (
              id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users (id), is_admin boolean not null default false);
            create table public.notes (
              id bigint generated always as identity primary key,
              author_id uuid not null default auth.uid() references auth.users (id), body text not null default '');
            create function public.is_admin() returns boolean language sql stable security definer set search_path = ''
              as $$ select exists (select 1 from public.profiles where user_id = (select auth.uid()) and is_admin) $$;
            revoke execute on function public.is_admin() from public, anon;
            alter table public.profiles enable row level security;
            alter table public.notes enable row level security;
            grant select on public.profiles to authenticated;
            grant select, insert on public.notes to authenticated;
            create policy "own or admin" on public.profiles for select to authenticated
              using (user_id = (select auth.uid()) or public.is_admin());
            create policy "own or admin" on public.notes for select to authenticated
              using (author_id = (select auth.uid()) or public.is_admin());
            """)
        #expect(!draft.plan.setup.contains { $0.contains("true") }, "\(draft.plan.setup)")
        for name in ["profiles", "notes"] {
            let relation = try #require(draft.plan.relations.first { $0.name == name })
            #expect(relation.access["ava"]?.select == .own, "\(name): \(draft.yaml)")
        }
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A table no one owns, shown by its state, with a unique text (`slug`): the shown
    /// row repeated the first row's `'Draft slug'`, its ON CONFLICT dropped it unsaid, and
    /// anon's read of live posts was drafted `none` (a news site, round twenty-six).
    @Test func theShownRowOfATableNoOneOwnsHasItsOwnKey() throws {
        let draft = try DraftRealProjectShapesTests.draft("uniqueshown", """
            create table public.posts (
              id uuid primary key default gen_random_uuid(), slug text not null unique,
              state text not null default 'draft' check (state in ('draft', 'live')));
            alter table public.posts enable row level security;
            create policy "live" on public.posts for select using (state = 'live');
            grant select on public.posts to anon, authenticated;
            """)
        let posts = try #require(draft.plan.relations.first { $0.name == "posts" })
        #expect(posts.access["anon"]?.select == .someRows, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
