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
        #expect(read?.expected == "some (at least one row, neither all (5) nor own (0))", "\(String(describing: read))")
        // Only the own rows shown: anon reads nothing, and `some` fails too.
        try connection.execute("""
            drop policy "everything" on public.posts;
            create policy "own" on public.posts for select to anon, authenticated using (author_id = (select auth.uid()))
            """)
        let closed = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(closed.failures.contains { $0.persona == "anon" && $0.probe == "select" && $0.observed == "none (0 rows)" },
                "\(closed.failures.map { "\($0.name): \($0.observed)" })")
    }
}
