import Testing
@testable import WardenKit
import WardenPostgres
import TestSupport

/// "Insert another user's row" where the row also points at a parent row of its
/// writer's: a notes app's insert policy checked only that the board was the writer's,
/// so ava could post a note in ben's name into her own board (it then showed as ben's,
/// and only ben could edit or delete it). The probe sent ben's whole sample, his board
/// included, which the policy refused, and `dev` showed `insert: own` (round
/// thirty-four).
@Suite struct DraftOthersRowInOwnParentTests {
    static func schema(insertCheck: String) -> String {
        """
        create table public.boards (id uuid primary key default gen_random_uuid(), owner_id uuid not null references auth.users (id));
        create table public.notes (
          id uuid primary key default gen_random_uuid(), board_id uuid not null references public.boards (id),
          author_id uuid not null references auth.users (id), body text);
        alter table public.boards enable row level security;
        alter table public.notes enable row level security;
        create policy boards_own on public.boards for all to authenticated
          using (owner_id = auth.uid()) with check (owner_id = auth.uid());
        create policy notes_read on public.notes for select to authenticated using (author_id = auth.uid());
        create policy notes_update on public.notes for update to authenticated using (author_id = auth.uid());
        create policy notes_insert on public.notes for insert to authenticated with check (\(insertCheck));
        """
    }

    static func otherRowProbe(_ draft: PlanDraft, _ persona: String) throws -> ProbeResult {
        try #require(draft.report.results.first {
            $0.subject == "public.notes" && $0.persona == persona && $0.probe == "insert another user's row"
        }, "\(draft.report.results.map(\.probe))")
    }

    @Test func anotherUsersRowInTheWritersOwnParentIsTried() throws {
        let draft = try DraftRealProjectShapesTests.draft("othersrowownparent", Self.schema(insertCheck: """
            exists (select 1 from public.boards b where b.id = board_id and b.owner_id = auth.uid())
            """))
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.access["ava"]?.insert == .all, "\(draft.yaml)")
        #expect(notes.access["ben"]?.insert == .all, "\(draft.yaml)")
        #expect(draft.dangerCells.contains { $0.hasPrefix("public.notes · ava: a signed-in user may insert other users' rows") },
                "\(draft.dangerCells)")
        #expect(try Self.otherRowProbe(draft, "ava").observed.hasSuffix("(ben's row with ava's own board_id)"))
        // Its own run, with `insert: all`, passes: the row in her own board goes in.
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// A policy that checks the writer too refuses both rows: `own`, and the probe's
    /// outcome is the whole other row's refusal, as before.
    @Test func aPolicyCheckingTheWriterStillRefusesBoth() throws {
        let draft = try DraftRealProjectShapesTests.draft("othersrowownparentchecked", Self.schema(insertCheck: """
            author_id = auth.uid() and exists (select 1 from public.boards b where b.id = board_id and b.owner_id = auth.uid())
            """))
        let notes = try #require(draft.plan.relations.first { $0.name == "notes" })
        #expect(notes.access["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(try Self.otherRowProbe(draft, "ava").observed.hasPrefix("denied (42501"))
        #expect(draft.verified, "\(DraftRealProjectShapesTests.failures(draft))")
    }

    /// An owner rule naming the parent's key only qualified by the table's own name, as
    /// pg_get_expr writes a column inside a subquery (`c.id = workouts.client_id`), and
    /// another column bare (`template_id is not null`): "ben's row" kept ava's client,
    /// was ava's own row, went in, and a coaching app's workouts were a made-up DANGER.
    @Test func aQualifiedOwnerColumnIsTheOtherUsersToo() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("othersrowqualified").project)
        try connection.execute(unsafeScript: """
            create table public.clients (id uuid primary key default gen_random_uuid(), user_id uuid not null references auth.users (id));
            create table public.templates (id uuid primary key default gen_random_uuid(), user_id uuid not null references auth.users (id));
            create table public.workouts (
              id uuid primary key default gen_random_uuid(), client_id uuid not null references public.clients (id),
              template_id uuid not null references public.templates (id));
            alter table public.workouts enable row level security;
            create policy workouts_read on public.workouts for select to authenticated
              using (exists (select 1 from public.clients c where c.id = workouts.client_id and c.user_id = auth.uid()));
            create policy workouts_insert on public.workouts for insert to authenticated
              with check (exists (select 1 from public.clients c where c.id = client_id and c.user_id = auth.uid()));
            alter table public.clients enable row level security;
            alter table public.templates enable row level security;
            create policy clients_own on public.clients for select to authenticated using (user_id = auth.uid());
            create policy templates_own on public.templates for select to authenticated using (user_id = auth.uid());
            """)
        let plan = try AccessPlanParser(file: "workouts.yml").parse("""
            schemas: [public]
            personas:
              ava: { role: authenticated, email: ava.workouts@example.com }
              ben: { role: authenticated, email: ben.workouts@example.com }
            setup:
              - insert into public.clients (user_id) select id from auth.users
              - insert into public.templates (user_id) select id from auth.users
              - insert into public.workouts (client_id, template_id) select c.id, t.id from public.clients c join public.templates t using (user_id)
            relations:
              clients:
                owner: user_id = auth.uid()
                sample: { user_id: auth.uid() }
                access: { ava: { select: own }, ben: { select: own } }
              templates:
                owner: user_id = auth.uid()
                sample: { user_id: auth.uid() }
                access: { ava: { select: own }, ben: { select: own } }
              workouts:
                owner: "(exists (select 1 from public.clients c where c.id = workouts.client_id and c.user_id = auth.uid())) and template_id is not null"
                sample:
                  client_id: "(select id from public.clients where user_id = auth.uid())"
                  template_id: "(select id from public.templates where user_id = auth.uid())"
                access: { ava: { select: own, insert: own }, ben: { select: own, insert: own } }
            """)
        let report = try AccessPlanRunner(connection: connection, plan: plan).run()
        #expect(report.failures.isEmpty, "\(report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// A message whose update policy checks only its sender, beside a trigger that keeps
    /// its thread without a word (`new.thread_id := old.thread_id`): "may move their
    /// messages into other users' threads" was a made-up DANGER, the update having
    /// touched a row it did not move (a classes app's chat; round thirty-nine). Without
    /// the trigger the move is a DANGER still.
    @Test func aMoveATriggerUndoesIsNoMove() throws {
        let schema = { (trigger: String) in """
            create table public.threads (id uuid primary key default gen_random_uuid(),
              owner_id uuid not null default auth.uid() references auth.users (id));
            create table public.messages (id uuid primary key default gen_random_uuid(),
              thread_id uuid not null references public.threads (id),
              sender_id uuid not null default auth.uid() references auth.users (id), body text not null default '');
            alter table public.threads enable row level security;
            alter table public.messages enable row level security;
            create policy "own" on public.threads for all using (owner_id = auth.uid()) with check (owner_id = auth.uid());
            create policy "read" on public.messages for select
              using (sender_id = auth.uid() or exists (select 1 from public.threads t where t.id = thread_id and t.owner_id = auth.uid()));
            create policy "add" on public.messages for insert
              with check (sender_id = auth.uid() and exists (select 1 from public.threads t where t.id = thread_id and t.owner_id = auth.uid()));
            create policy "edit" on public.messages for update using (sender_id = auth.uid()) with check (sender_id = auth.uid());
            \(trigger)
            """ }
        let move = "ava moves a public.messages row of ava's into a public.threads row of ben's"
        let kept = try DraftRealProjectShapesTests.draft("keptthread", schema("""
            create function public.keep_thread() returns trigger language plpgsql as $$
            begin new.thread_id := old.thread_id; return new; end $$;
            create trigger keep_thread before update on public.messages for each row execute function public.keep_thread();
            """))
        #expect(kept.dangerCells.isEmpty, "\(kept.dangerCells)")
        #expect(kept.plan.checks.contains { $0.name == move + ", which keeps its thread_id as it was" }, "\(kept.plan.checks.map(\.name))")
        #expect(kept.verified, "\(DraftRealProjectShapesTests.failures(kept))")
        let open = try DraftRealProjectShapesTests.draft("movedthread", schema(""))
        try DraftRealProjectShapesTests.expectWentThrough(
            open, check: move, danger: "public.messages · ava: a signed-in user may move their public.messages rows into other users'")
        #expect(open.verified, "\(DraftRealProjectShapesTests.failures(open))")
    }
}
