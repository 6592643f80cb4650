import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// Text columns whose checks ask for a shape (`slug ~ '^[a-z0-9]+(?:-[a-z0-9]+)*$'`, an
/// e-mail, an https URL, as GrainMuse/frontend's academy tables do) get a value their
/// checks accept in the draft's setup and samples: `'Draft slug'` was refused, the
/// setup row with it, and every table referencing it had no rows (its update and delete
/// cells unobserved). A check no candidate passes keeps the drafted text, as before.
@Suite struct DraftCheckedTextTests {
    static let schema = """
        create table public.programs (
          id uuid primary key default gen_random_uuid(),
          slug text not null unique check (slug ~ '^[a-z0-9]+(?:-[a-z0-9]+)*$'),
          contact text not null check (contact ~* '^[^@ ]+@[^@ ]+\\.[a-z]+$'),
          site text not null check (site ~ '^https://'),
          title text not null check (char_length(title) between 1 and 160)
        );
        create table public.codes (code text not null check (code ~ '^[0-9]{9}$' and code <> '000000000'));
        create table public.boards (code text not null check (code ~ '^[A-Z]{3}$'), pin text not null check (pin ~ '^[0-9]{6}$'));
        create table public.applications (
          id uuid primary key default gen_random_uuid(),
          program_id uuid not null references public.programs,
          user_id uuid not null references auth.users default auth.uid()
        );
        alter table public.programs enable row level security;
        create policy "read" on public.programs for select to authenticated using (true);
        alter table public.applications enable row level security;
        create policy "own" on public.applications for all to authenticated
          using (auth.uid() = user_id) with check (auth.uid() = user_id);
        """

    @Test func theSetupRowsPassTheirChecksAndTheReferencingTableIsObserved() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("checkedtext").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        // A program per persona (the applications point into it), its slug numbered.
        #expect(draft.yaml.contains("'draft' || row_number() over (order by u.email), 'draft@example.com', 'https://example.com/draft', 'Draft title' from auth.users u"), "\(draft.yaml)")
        #expect(!draft.yaml.contains("there is no such row in public.applications"), "\(draft.yaml)")
        #expect(draft.yaml.contains(#"code: "'Draft code'""#), "\(draft.yaml)")
        // Short codes: three capitals, six digits.
        let boards = try #require(draft.plan.relations.first { $0.name == "boards" })
        #expect(boards.sample.map(\.expression) == ["'DRA'", "'123456'"], "\(draft.yaml)")
        let applications = try #require(draft.plan.relations.first { $0.name == "applications" })
        #expect(applications.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        let report = ObservedAccessReport(draft, planFile: "plan.yml")
        #expect(report.errorLines.isEmpty, "\(report.errorLines)")
        #expect(try connection.query("select count(*)::text from public.programs").scalar == "0")
    }

    /// A unique handle with a pattern, in a table of the personas' own rows: each
    /// persona's setup row gets its own value the pattern accepts (`draft1`, `draft2`),
    /// not `'Draft handle ' || n`, which the check refused for both.
    @Test func eachPersonaGetsAUniqueValueThePatternAccepts() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("checkedunique").project)
        try connection.execute(unsafeScript: """
            create table public.profiles (
              user_id uuid primary key references auth.users,
              handle text not null unique check (handle ~ '^[a-z0-9_]{3,20}$')
            );
            alter table public.profiles enable row level security;
            create policy "own" on public.profiles for select to authenticated using (auth.uid() = user_id);
            """)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.yaml.contains("'draft' || row_number() over (order by u.email)"), "\(draft.yaml)")
        let profiles = try #require(draft.plan.relations.first { $0.name == "profiles" })
        #expect(profiles.access["ava"] == Access(select: .own, insert: .nothing, update: .nothing, delete: .nothing), "\(draft.yaml)")
        #expect(profiles.access["ben"] == profiles.access["ava"], "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// A class's school year (`check (school_year ~ '^\d{4}-\d{4}$')`): no candidate
    /// passed, no class was made, and everything under classes (members, groups, tasks,
    /// submissions) went unprobed, 684 of 1233 probes (a classes app; round thirty-nine).
    @Test func aSchoolYearIsTwoYears() throws {
        let draft = try DraftRealProjectShapesTests.draft("schoolyear", """
            create table public.classes (id uuid primary key default gen_random_uuid(),
              teacher_id uuid not null default auth.uid() references auth.users (id),
              school_year text not null check (school_year ~ '^\\d{4}-\\d{4}$'));
            alter table public.classes enable row level security;
            create policy "own" on public.classes for all to authenticated using (teacher_id = auth.uid()) with check (teacher_id = auth.uid());
            """)
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "classes", ava: Access(select: .own, insert: .own, update: .own, delete: .own))
    }

    /// An upload named by its SHA-256 (`check (sha256 ~ '^[0-9a-f]{64}$')`), a unique
    /// hex key, and a ten-digit phone number: no fixed candidate passed, every
    /// setup row was refused, and uploads every visitor reads showed "no dangers found"
    /// (a game ledger; round forty). A text made for the pattern passes.
    @Test func aTextIsMadeForTheCheckedPattern() throws {
        let draft = try DraftRealProjectShapesTests.draft("hexcheck", """
            create table public.uploads (id bigint generated always as identity primary key,
              user_id uuid not null references auth.users (id) default auth.uid(),
              sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
              key text not null unique check (key ~* '^K-[A-F0-9]{8}$'),
              phone text not null check (phone ~ '^[6-9][0-9]{9}$' and phone !~ '^9+$' and phone not like '%~%'));
            alter table public.uploads enable row level security;
            create policy "read" on public.uploads for select using (true);
            create policy "write" on public.uploads for insert to authenticated with check (user_id = auth.uid());
            """)
        #expect(draft.dangerCells.contains("public.uploads · anon: anon (no sign-in) sees every user's rows"), "\(draft.dangerCells)")
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "uploads", ava: Access(select: .all, insert: .own, update: .nothing, delete: .nothing))
        #expect(DraftCheckedText.patterns(in: "((a ~ '^x''y$'::text) AND (a !~ 'z'::text) AND (a ~~ 'w%'::text) AND (a ~* 'v'))")
                    .map { "\($0.text)|\($0.caseInsensitive)" } == ["^x'y$|false", "v|true"])
    }

    /// A format a BEFORE trigger enforces (`if new.code !~ '^[A-Z]{3}-[0-9]{4}$' then
    /// raise exception`): no candidate met it, every insert was refused (P0001), and the
    /// draft said `insert: none` for every persona (round forty's note). The trigger's
    /// pattern is tried as a check is (in a statement of its own); a pattern pgwarden
    /// cannot make a text for (`'('`) is left out.
    @Test func aTextIsMadeForATriggersPattern() throws {
        let draft = try DraftRealProjectShapesTests.draft("triggerpattern", """
            create table public.vouchers (id bigint generated always as identity primary key,
              user_id uuid not null references auth.users (id) default auth.uid(), code text not null, note text);
            create function public.vouchers_format() returns trigger language plpgsql as $$
            begin
              if NEW.code !~ '^[A-Z]{3}-[0-9]{4}$' then
                raise exception 'bad voucher code %', new.code;
              end if;
              if new.note !~ '(' then raise exception 'never'; end if;
              return new;
            end $$;
            create trigger vouchers_format before insert or update on public.vouchers
              for each row execute function public.vouchers_format();
            alter table public.vouchers enable row level security;
            create policy "own" on public.vouchers for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            grant select, insert, update, delete on public.vouchers to authenticated;
            """)
        let vouchers = try #require(draft.plan.relations.first { $0.name == "vouchers" })
        #expect(vouchers.access["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(DraftTriggerPatterns.checks(in: [["public.t", "if NEW.\"Code\" !~* '^a''b$' or new.x!~'y' then"]])
                == ["public.t": ["Code": [#"("Code" ~* '^a''b$')"#], "x": ["(x ~ 'y')"]]])
    }

    /// A path that must begin with its author's id, as a table keeping a Storage path
    /// checks it (`check (image_path like author_id::text || '/%')`, and `starts_with`):
    /// `'Draft image_path'` was refused, every setup row with it, and 18 cells of a photo
    /// app's posts went unprobed (round thirty-five). The value is made of the author's.
    @Test func aPathBeginningWithAnotherColumnsValueIsMadeOfIt() throws {
        let draft = try DraftRealProjectShapesTests.draft("pathcheck", """
            create table public.posts (id uuid primary key default gen_random_uuid(),
              author_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
              image_path text not null check (image_path like author_id::text || '/%'),
              thumb_path text not null check (starts_with(thumb_path, author_id::text || '/thumbs/')));
            alter table public.posts enable row level security;
            create policy posts_read on public.posts for select to authenticated using (author_id = auth.uid());
            create policy posts_add on public.posts for insert to authenticated with check (author_id = auth.uid());
            create policy posts_drop on public.posts for delete to authenticated using (author_id = auth.uid());
            """)
        #expect(draft.yaml.contains(#"image_path: "(auth.uid())::text || '/draft'""#), "\(draft.yaml)")
        #expect(draft.yaml.contains(#"thumb_path: "(auth.uid())::text || '/thumbs/'""#), "\(draft.yaml)")
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "posts", ava: Access(select: .own, insert: .own, update: .nothing, delete: .own))
    }
}
