import Foundation
import Testing
import WardenKit
import TestSupport

/// Rows that need two different users (a direct-message thread between two users, a
/// friendship stored once per pair): the draft's setup names each persona and a user
/// who is no persona (`DraftStandInUser`). It named the persona twice, the table's check
/// refused every row, and every cell of the thread and of its messages was "cannot
/// probe" (a messaging app, round twenty-six).
@Suite struct DraftTwoUserRowsTests {
    /// Threads between two users, and their lines, each read by the thread's two users.
    static let threads = """
        create table public.threads (
          id uuid primary key default gen_random_uuid(),
          opener uuid not null references auth.users, other uuid not null references auth.users,
          check (opener <> other));
        create table public.thread_lines (
          id uuid primary key default gen_random_uuid(),
          thread_id uuid not null references public.threads, sender uuid not null references auth.users,
          body text not null);
        alter table public.threads enable row level security;
        alter table public.thread_lines enable row level security;
        create policy "parties read" on public.threads for select to authenticated using (auth.uid() in (opener, other));
        create policy "parties open" on public.threads for insert to authenticated with check (auth.uid() in (opener, other));
        create policy "parties read lines" on public.thread_lines for select to authenticated
          using (thread_id in (select id from public.threads where auth.uid() in (opener, other)));
        create policy "parties write lines" on public.thread_lines for insert to authenticated
          with check (sender = auth.uid() and thread_id in (select id from public.threads where auth.uid() in (opener, other)));
        grant select, insert on public.threads, public.thread_lines to authenticated;
        """

    @Test func eachThreadIsBetweenAPersonaAndSomeoneElse() throws {
        let draft = try DraftRealProjectShapesTests.draft("twouserthreads", Self.threads)
        let own = Access(select: .own, insert: .own, update: .nothing, delete: .nothing)
        for name in ["threads", "thread_lines"] {
            let relation = try #require(draft.plan.relations.first { $0.name == name })
            #expect(relation.access["ava"] == own, "\(name): \(draft.yaml)")
            #expect(relation.access["ben"] == own, "\(name): \(draft.yaml)")
            #expect(relation.access["anon"] == Access.nothing, "\(name): \(draft.yaml)")
        }
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        #expect(draft.plan.setup.first?.contains("'someone.draft@example.com'") == true, "\(draft.plan.setup)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A reader of every thread is still a DANGER: the stand-in keeps ben out of ava's thread.
    @Test func aPolicyShowingEveryThreadIsADanger() throws {
        let draft = try DraftRealProjectShapesTests.draft("twouserleak", Self.threads + """

            create policy "everyone reads" on public.threads for select to authenticated using (true);
            """)
        let threads = try #require(draft.plan.relations.first { $0.name == "threads" })
        #expect(threads.access["ben"]?.select == .all, "\(draft.yaml)")
        #expect(draft.dangerCells.contains { $0.hasPrefix("public.threads · ben:") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A pair stored once, its first user the lesser (`check (low < high)`): the persona
    /// in `low` needs someone whose id sorts after every persona's; in `high`, before.
    @Test func anOrderedPairGetsSomeoneOnTheRightSide() throws {
        let draft = try DraftRealProjectShapesTests.draft("twouserordered", """
            create table public.pairs (
              low uuid not null references auth.users, high uuid not null references auth.users,
              primary key (low, high), check (low::text < high::text));
            create table public.rivals (
              id bigint generated always as identity primary key,
              challenger uuid not null references auth.users, champion uuid not null references auth.users,
              check (not (challenger = champion)), check (champion < challenger));
            alter table public.pairs enable row level security;
            alter table public.rivals enable row level security;
            create policy "own pairs" on public.pairs for select to authenticated using (low = auth.uid() or high = auth.uid());
            create policy "own rivalries" on public.rivals for select to authenticated using (challenger = auth.uid());
            grant select on public.pairs, public.rivals to authenticated;
            """)
        for name in ["pairs", "rivals"] {
            let relation = try #require(draft.plan.relations.first { $0.name == name })
            #expect(relation.access["ava"]?.select == .own, "\(name): \(draft.yaml)")
            #expect(relation.access["ben"]?.select == .own, "\(name): \(draft.yaml)")
        }
        let setup = draft.plan.setup.first ?? ""
        #expect(setup.contains("'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid"), "\(setup)")
        #expect(setup.contains("'00000000-0000-0000-0000-000000000001'::uuid"), "\(setup)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Two user columns with no check between them keep naming the persona twice (a
    /// task its author assigned to themself), and no one else is signed up.
    @Test func withoutACheckThePersonaIsNamedTwice() throws {
        let draft = try DraftRealProjectShapesTests.draft("twousernocheck", """
            create table public.chores (
              id bigint generated always as identity primary key,
              author uuid not null references auth.users, assignee uuid not null references auth.users);
            alter table public.chores enable row level security;
            create policy "assignee works" on public.chores for all to authenticated
              using (assignee = auth.uid()) with check (author = auth.uid());
            grant select, insert, update, delete on public.chores to authenticated;
            """)
        #expect(!draft.plan.setup.contains { $0.contains("someone") }, "\(draft.plan.setup)")
        let chores = try #require(draft.plan.relations.first { $0.name == "chores" })
        #expect(chores.access["ava"]?.select == .own, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Lines whose insert check names only the sender: any user may post into any
    /// thread, one they cannot read. By the owner rule (`sender = auth.uid()`) such a line
    /// is the poster's own, so only a check can say it.
    @Test func postingIntoSomeoneElsesThreadIsADanger() throws {
        let leaky = Self.threads.replacingOccurrences(
            of: "with check (sender = auth.uid() and thread_id in (select id from public.threads where auth.uid() in (opener, other)));",
            with: "with check (sender = auth.uid());")
        #expect(leaky != Self.threads)
        let draft = try DraftRealProjectShapesTests.draft("twouserpost", leaky)
        let name = "ava writes a public.thread_lines row into a public.threads row of ben's"
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: name, danger: "public.thread_lines · ava: a signed-in user may write")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")

        // The thread's own check refuses it: kept, expecting 42501, and no DANGER.
        let safe = try DraftRealProjectShapesTests.draft("twouserpostsafe", Self.threads)
        let refused = try #require(safe.plan.checks.first { $0.name == name }, "\(safe.yaml)")
        #expect(refused.expectation.sqlState == "42501")
        #expect(safe.dangerCells.isEmpty, "\(safe.dangerCells)")
    }

    /// Notes whose insert policy checks the workspace, beside an update policy of
    /// `using (author = auth.uid())` alone: an insert into ben's workspace is refused,
    /// but ava moves a note of hers there by an update (a team-invitations app, round
    /// twenty-seven). The update's own WITH CHECK refuses it: kept, expecting 42501.
    @Test func movingAnOwnRowIntoSomeoneElsesParentIsADanger() throws {
        let schema = """
            create table public.spaces (id uuid primary key default gen_random_uuid(),
                                        made_by uuid not null references auth.users (id));
            create table public.notes (id uuid primary key default gen_random_uuid(),
                                       space_id uuid not null references public.spaces (id),
                                       author uuid not null default auth.uid() references auth.users (id), body text);
            alter table public.spaces enable row level security;
            alter table public.notes enable row level security;
            create policy spaces_own on public.spaces for all to authenticated using (made_by = auth.uid()) with check (made_by = auth.uid());
            create policy notes_read on public.notes for select to authenticated using (author = auth.uid());
            create policy notes_write on public.notes for insert to authenticated
              with check (author = auth.uid() and exists (select 1 from public.spaces s where s.id = space_id and s.made_by = auth.uid()));
            create policy notes_edit on public.notes for update to authenticated using (author = auth.uid());
            """
        let draft = try DraftRealProjectShapesTests.draft("movenote", schema)
        let name = "ava moves a public.notes row of ava's into a public.spaces row of ben's"
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: name, danger: "public.notes · ava: a signed-in user may move their public.notes rows")
        let written = try #require(draft.plan.checks.first { $0.name.hasPrefix("ava writes a public.notes row") })
        #expect(written.expectation.sqlState == "42501", "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")

        let guarded = try DraftRealProjectShapesTests.draft("movenotesafe", schema.replacingOccurrences(
            of: "for update to authenticated using (author = auth.uid());",
            with: "for update to authenticated using (author = auth.uid()) with check (author = auth.uid() and exists "
                + "(select 1 from public.spaces s where s.id = space_id and s.made_by = auth.uid()));"))
        let refused = try #require(guarded.plan.checks.first { $0.name == name }, "\(guarded.yaml)")
        #expect(refused.expectation.sqlState == "42501", "\(guarded.yaml)")
        #expect(guarded.dangerCells.isEmpty, "\(guarded.dangerCells)")

        // Both an insert and a move go through: one hole, one DANGER naming both.
        let open = try DraftRealProjectShapesTests.draft("movenoteopen", schema.replacingOccurrences(
            of: "with check (author = auth.uid() and exists (select 1 from public.spaces s where s.id = space_id and s.made_by = auth.uid()));",
            with: "with check (author = auth.uid());"))
        let notes = open.dangerCells.filter { $0.hasPrefix("public.notes · ava: a signed-in user may") }
        #expect(notes.count == 1, "\(open.dangerCells)")
        #expect(notes.first?.contains("so does moving an own row there by an update (\(name))") == true, "\(open.dangerCells)")
        #expect(open.plan.checks.contains { $0.name == name }, "\(open.yaml)")
        #expect(open.verified, "\(DraftRealProjectShapesTests.failures(open))")
    }

    /// Mail addresses a user links to the account, and mail readable where it was sent
    /// to one of the reader's addresses: the insert policy asks only that the row be the
    /// user's own, so ava links ben's address and reads his mail (a recruiting app, round
    /// twenty-seven). An address unique across users refuses the claim (23505): kept so.
    @Test func claimingAnotherUsersValueThatAPolicyMatchesOnIsADanger() throws {
        let schema = """
            create table public.linked_emails (user_id uuid not null default auth.uid() references auth.users (id),
                                               email text not null, primary key (user_id, email));
            create table public.inbound (id uuid primary key default gen_random_uuid(), to_email text not null, body text not null);
            alter table public.linked_emails enable row level security;
            alter table public.inbound enable row level security;
            create policy le_read on public.linked_emails for select to authenticated using (user_id = auth.uid());
            create policy le_add on public.linked_emails for insert to authenticated with check (user_id = auth.uid());
            create policy in_read on public.inbound for select to authenticated
              using (to_email in (select l.email from public.linked_emails l where l.user_id = auth.uid()));
            """
        let name = "ava adds a public.linked_emails row with the email of ben's"
        let draft = try DraftRealProjectShapesTests.draft("claimemail", schema)
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: name, danger: "public.linked_emails · ava: a signed-in user may claim another user's email")
        // (inbound's own cells stay "cannot probe": its setup row is sent to an address
        // no persona linked.)
        #expect(!DraftRealProjectShapesTests.failures(draft).contains { $0.contains("· public.linked_emails ·") }, "\(draft.yaml)")

        let unique = try DraftRealProjectShapesTests.draft("claimemailunique", schema.replacingOccurrences(
            of: "email text not null, primary key (user_id, email)", with: "email text not null unique, primary key (user_id, email)"))
        let refused = try #require(unique.plan.checks.first { $0.name == name }, "\(unique.yaml)")
        #expect(refused.expectation.sqlState == "23505", "\(unique.yaml)")
        #expect(unique.dangerCells.isEmpty, "\(unique.dangerCells)")
    }

    /// A path another table's policy matches files on, unique with its bucket: ava's
    /// last row shares ben's bucket, so rewriting its path to ben's fails on the key
    /// (23505). The failure was read as "1 row, and the row does not hold ben's path"
    /// (its verify), kept so, and the draft failed its own run on every run (a media
    /// app); a refused statement is kept as refused, with the value's absence verified.
    @Test func aRewriteAUniqueKeyRefusesIsKeptAsRefused() throws {
        let draft = try DraftRealProjectShapesTests.draft("rewriteunique", """
            create table public.media (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users (id), bucket text not null check (bucket in ('private', 'press')),
              path text not null, is_public boolean not null default false, unique (bucket, path));
            create table public.files (id uuid primary key default gen_random_uuid(), name text not null);
            alter table public.media enable row level security;
            alter table public.files enable row level security;
            create policy own on public.media for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            create policy press_read on public.media for select to anon, authenticated using (bucket = 'press' and is_public);
            create policy press_files on public.files for select to anon, authenticated
              using (exists (select 1 from public.media m where m.bucket = 'press' and m.path = files.name and m.is_public));
            """)
        let name = "ava sets the path of its own public.media row to ben's"
        let rewrite = try #require(draft.plan.checks.first { $0.name == name }, "\(draft.yaml)")
        #expect(rewrite.expectation.sqlState == "23505", "\(draft.yaml)")
        #expect(rewrite.verify?.hasPrefix("select not exists (") == true, "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A value from a list the column's check allows (`bucket in ('private', 'press')`)
    /// that another table's policy matches rows on: a category every user may hold, not
    /// one user's to claim ("may claim another user's bucket" was a made-up DANGER on a
    /// media app whose storage policy reads `m.bucket = 'press'`).
    @Test func aCategoryFromACheckListIsNoValueToClaim() throws {
        let draft = try DraftRealProjectShapesTests.draft("claimcategory", """
            create table public.media (id uuid primary key default gen_random_uuid(),
              user_id uuid not null references auth.users (id), bucket text not null check (bucket in ('private', 'press')),
              code text not null default 'x');
            create table public.posts (id uuid primary key default gen_random_uuid(), bucket text not null, code text not null);
            alter table public.media enable row level security;
            alter table public.posts enable row level security;
            create policy own on public.media for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            create policy by_media on public.posts for select to authenticated
              using (exists (select 1 from public.media m where m.user_id = auth.uid() and m.bucket = posts.bucket and m.code = posts.code));
            """)
        let names = draft.plan.checks.map(\.name)
        #expect(!names.contains { $0.contains("the bucket of ben's") || $0.contains("the bucket of its own") }, "\(names)")
        #expect(names.contains("ava adds a public.media row with the code of ben's"), "\(names)")
    }

    /// The stand-in user a follow of someone else needs, signed up where a trigger
    /// writes the metadata's handle into a unique column: given ava's own metadata, the
    /// trigger refused it (23505), the follows had no rows, and all 18 of their cells
    /// went unprobed (a photo-sharing app, round thirty-five). The stand-in's metadata
    /// names it instead of ava ("someone"), and every cell is probed.
    @Test func theStandInSignsUpWithMetadataOfItsOwn() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("standinmeta").project)
        try connection.execute(unsafeScript: """
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade, handle text not null unique);
            create function public.on_signup() returns trigger language plpgsql security definer set search_path = '' as $$
            begin insert into public.profiles (id, handle) values (new.id, new.raw_user_meta_data ->> 'handle'); return new; end $$;
            create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
            create table public.follows (follower_id uuid not null references public.profiles (id) on delete cascade,
              followee_id uuid not null references public.profiles (id) on delete cascade,
              primary key (follower_id, followee_id), check (follower_id <> followee_id));
            alter table public.profiles enable row level security;
            alter table public.follows enable row level security;
            create policy profiles_read on public.profiles for select using (true);
            create policy follows_read on public.follows for select to authenticated using (follower_id = auth.uid());
            create policy follows_add on public.follows for insert to authenticated with check (follower_id = auth.uid());
            create policy follows_drop on public.follows for delete to authenticated using (follower_id = auth.uid());
            """)
        let draft = try PlanDrafter(connection: connection, userMetadata: [#"ava={"handle": "ava_draft"}"#, #"ben={"handle": "ben_draft"}"#])
            .draft()
        #expect(draft.yaml.contains("someone_draft"), "\(draft.yaml)")
        try DraftRealProjectShapesTests.expectEveryCellProbed(
            draft, table: "follows", ava: Access(select: .own, insert: .own, update: .nothing, delete: .own))
    }

    /// A reader's own column of the same name (`files.name`, a path whose first folder is
    /// an album's id, as Storage's `objects.name` is) read inside a subquery over
    /// `albums`: no policy matches rows on `albums.name`, yet "may claim another user's
    /// name" was a made-up DANGER, and its rewrite check failed the draft's own run (a
    /// training app's storage policies, round thirty-five).
    @Test func theReadersOwnColumnOfTheSameNameIsNoValueToClaim() throws {
        let draft = try DraftRealProjectShapesTests.draft("claimreaderscolumn", """
            create table public.albums (id bigint generated by default as identity primary key, name text,
              created_by uuid default auth.uid() references auth.users (id));
            create table public.files (id uuid primary key default gen_random_uuid(), name text not null);
            alter table public.albums enable row level security;
            alter table public.files enable row level security;
            create policy own on public.albums for all to authenticated using (created_by = auth.uid()) with check (created_by = auth.uid());
            create policy by_album on public.files for select to authenticated
              using (exists (select 1 from public.albums a
                             where a.id = (split_part(files.name, '/', 1))::bigint and a.created_by = auth.uid()));
            """)
        let names = draft.plan.checks.map(\.name)
        #expect(!names.contains { $0.contains("the name of ben's") || $0.contains("to ben's") }, "\(names)")
        #expect(!draft.dangerCells.contains { $0.contains("claim another user's") }, "\(draft.dangerCells)")
    }

    /// Profiles a sign-up trigger fills with the user's e-mail, and documents shared with
    /// e-mail addresses (`collaborator_emails`), each owned through `owner_id default
    /// auth.uid()` by a profile; no row-level security yet.
    static let profilesAndSharedDocs = """
        create table public.profiles (id uuid primary key references auth.users (id) on delete cascade, email text);
        create function public.on_signup() returns trigger language plpgsql security definer set search_path = '' as $$
        begin insert into public.profiles (id, email) values (new.id, new.email); return new; end $$;
        create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
        create table public.docs (id uuid primary key default gen_random_uuid(),
          owner_id uuid not null default auth.uid() references public.profiles (id),
          collaborator_emails text[] not null default '{}', body text not null default '');

        """

    /// Collaborators named by e-mail, matched against the e-mail in the reader's own
    /// profile, which the user may rewrite (`using (id = auth.uid())`, no check on it): ava
    /// sets hers to ben's and edits the documents shared with him. The insert was the only
    /// claim tried, refused (23505: ava already has her profile), and dev said "no
    /// dangers found" (a study platform, round thirty). A trigger that keeps the e-mail
    /// (`new.email := old.email`) turns the update back: kept as refused, no DANGER.
    @Test func rewritingTheOwnRowWithAnotherUsersValueIsADanger() throws {
        let schema = Self.profilesAndSharedDocs + """
            alter table public.profiles enable row level security;
            alter table public.docs enable row level security;
            create policy own_profile on public.profiles to authenticated using (id = auth.uid());
            create policy owner on public.docs to authenticated using (owner_id = auth.uid());
            create policy collaborators on public.docs to authenticated
              using ((select p.email from public.profiles p where p.id = auth.uid()) = any (collaborator_emails));
            """
        let name = "ava sets the email of its own public.profiles row to ben's"
        let draft = try DraftRealProjectShapesTests.draft("claimrewrite", schema)
        let rewrite = try #require(draft.plan.checks.first { $0.name == name }, "\(draft.yaml)")
        #expect(rewrite.expectation.rowCount == 1, "\(draft.yaml)")
        #expect(draft.dangerCells.contains {
            $0.hasPrefix("public.profiles · ava: a signed-in user may claim another user's email in public.profiles")
                && $0.contains("(an update of the user's own row to another user's value went through)")
        }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")

        let kept = try DraftRealProjectShapesTests.draft("claimrewritekept", schema + """
            create function public.keep_email() returns trigger language plpgsql as $$
            begin new.email := old.email; return new; end $$;
            create trigger keep_email before update on public.profiles for each row execute function public.keep_email();
            """)
        let refused = try #require(kept.plan.checks.first { $0.name == name }, "\(kept.yaml)")
        #expect(refused.verify?.hasPrefix("select not exists") == true, "\(kept.yaml)")
        #expect(kept.dangerCells.isEmpty, "\(kept.dangerCells)")
        #expect(kept.verified, "\(DraftRealProjectShapesTests.failures(kept))")
    }

    /// Participants join projects through a table whose policy asks only that the row be
    /// the user's own, and participants read the project's secrets. One published project
    /// of a third user's, which every signed-in user reads, made the writer's read of
    /// projects `some`, and the join check was dropped as if ben's were readable too (a
    /// study platform's seed, round thirty): the insert now writes only where the writer
    /// cannot read the row it names.
    @Test func aReadableRowOfAThirdUsersKeepsTheJoinCheck() throws {
        let draft = try DraftRealProjectShapesTests.draft("parentthirduser", """
            create table public.projects (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id), published boolean not null default false);
            create table public.secrets (project_id uuid primary key references public.projects (id), secret text not null default '');
            create table public.participants (id uuid primary key default gen_random_uuid(),
              project_id uuid not null references public.projects (id), user_id uuid not null default auth.uid() references auth.users (id));
            create function public.takes_part(_project uuid) returns boolean language sql stable security definer set search_path = '' as $$
              select exists (select 1 from public.participants p where p.user_id = auth.uid() and p.project_id = _project) $$;
            alter table public.projects enable row level security;
            alter table public.secrets enable row level security;
            alter table public.participants enable row level security;
            create policy own_projects on public.projects to authenticated using (owner_id = auth.uid());
            create policy published on public.projects for select to authenticated using (published);
            create policy part_read on public.projects for select to authenticated using (public.takes_part(id));
            create policy secrets_read on public.secrets for select to authenticated using (public.takes_part(project_id));
            create policy own_part on public.participants to authenticated using (user_id = auth.uid());
            insert into auth.users (id, email) values ('00000000-0000-4000-8000-0000000000c1', 'carol.third@example.com');
            insert into public.projects (owner_id, published) values ('00000000-0000-4000-8000-0000000000c1', true);
            """)
        let name = "ava writes a public.participants row into a public.projects row of ben's"
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: name, danger: "public.participants · ava: a signed-in user may write public.participants rows")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A comment on a post everyone reads is the app working: no check.
    @Test func aRowIntoARowTheWriterMayReadGetsNoCheck() throws {
        let draft = try DraftRealProjectShapesTests.draft("twouserpublicpost", """
            create table public.posts (
              id bigint generated always as identity primary key, author uuid not null references auth.users default auth.uid(),
              body text not null);
            create table public.replies (
              id bigint generated always as identity primary key, post_id bigint not null references public.posts,
              author uuid not null references auth.users default auth.uid(), body text not null);
            alter table public.posts enable row level security;
            alter table public.replies enable row level security;
            create policy "read posts" on public.posts for select using (true);
            create policy "write posts" on public.posts for insert to authenticated with check (author = auth.uid());
            create policy "read replies" on public.replies for select using (true);
            create policy "write replies" on public.replies for insert to authenticated with check (author = auth.uid());
            grant select on public.posts, public.replies to anon, authenticated;
            grant insert on public.posts, public.replies to authenticated;
            """)
        #expect(draft.plan.checks.isEmpty, "\(draft.plan.checks.map(\.name))")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// Follows between two profiles (`follower_id`, `followee_id -> profiles.id ->
    /// auth.users`, `check (follower_id <> followee_id)`): the one followed is someone
    /// who is no persona, with a profile of their own (a social app, round twenty-six).
    @Test func aFollowThroughProfilesIsOfSomeoneElse() throws {
        let draft = try DraftRealProjectShapesTests.draft("twouserfollows", """
            create table public.profiles (id uuid primary key references auth.users (id) on delete cascade, display_name text);
            alter table public.profiles enable row level security;
            create policy "own profile" on public.profiles for select using (id = auth.uid());
            create policy "make own profile" on public.profiles for insert with check (id = auth.uid());
            create table public.follows (
              follower_id uuid not null references public.profiles (id), followee_id uuid not null references public.profiles (id),
              primary key (follower_id, followee_id), check (follower_id <> followee_id));
            alter table public.follows enable row level security;
            create policy "see own follows" on public.follows for select using (follower_id = auth.uid() or followee_id = auth.uid());
            create policy "follow" on public.follows for insert with check (follower_id = auth.uid());
            create policy "unfollow" on public.follows for delete using (follower_id = auth.uid());
            grant select, insert, delete on public.profiles, public.follows to authenticated;
            """)
        let follows = try #require(draft.plan.relations.first { $0.name == "follows" })
        #expect(follows.access["ava"] == Access(select: .own, insert: .own, update: .nothing, delete: .own), "\(draft.yaml)")
        #expect(draft.plan.setup.contains { $0.contains("insert into public.profiles") && $0.contains("'someone.draft@example.com'") },
                "\(draft.plan.setup)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// The two users kept apart by the insert policy, not by a check constraint (`with
    /// check (auth.uid() = user_id and user_id <> target_id)`, a dating app's likes):
    /// each persona's row named the persona twice, the policy refused it, and every
    /// user's insert was drafted `none` (round thirty-four).
    @Test func twoUsersKeptApartByThePolicyAreAPersonaAndSomeoneElse() throws {
        let draft = try DraftRealProjectShapesTests.draft("twouserpolicy", """
            create table public.reactions (
              user_id uuid not null references auth.users (id), target_id uuid not null references auth.users (id),
              kind text not null default 'like', primary key (user_id, target_id));
            alter table public.reactions enable row level security;
            create policy r_read on public.reactions for select using (auth.uid() = user_id);
            create policy r_insert on public.reactions for insert with check (auth.uid() = user_id and user_id <> target_id);
            """)
        let reactions = try #require(draft.plan.relations.first { $0.name == "reactions" })
        #expect(reactions.access["ava"] == Access(select: .own, insert: .own, update: .nothing, delete: .nothing), "\(draft.yaml)")
        #expect(reactions.access["ben"] == reactions.access["ava"], "\(draft.yaml)")
        #expect(reactions.sample.first { $0.column == "target_id" }?.expression == "'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid", "\(draft.yaml)")
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }
}
