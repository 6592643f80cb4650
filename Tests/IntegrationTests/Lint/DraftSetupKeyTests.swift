import Foundation
import Testing
import WardenKit
import TestSupport

/// `plan draft`'s setup gives each signed-in persona a row of its own even when the
/// table's keys have no default (a text key, as in vercel/nextjs-subscription-payments;
/// a short varchar key, a number key past existing rows, a composite key, a unique
/// column besides the key, a uuid key, a key and a column a check lists the values
/// of): both personas see their own row, no DANGER
/// is made up, and the draft passes on its own database.
@Suite struct DraftSetupKeyTests {
    static let schema = """
        create table public.subscriptions (id text primary key, user_id uuid references auth.users, status text);
        create table public.invoices (code varchar(4) primary key, user_id uuid not null references auth.users);
        create table public.tickets (id int primary key, user_id uuid references auth.users);
        insert into public.tickets values (2, null);
        create table public.handles (
          slug text not null, version int not null, handle text not null unique, since date not null unique,
          user_id uuid not null references auth.users, primary key (slug, version));
        create table public.devices (id uuid primary key, user_id uuid not null references auth.users);
        create table public.memberships (
          tier text primary key check (tier in ('free', 'pro')),
          state varchar(10) not null check (state in ('active', 'canceled')), user_id uuid references auth.users);
        """
    static let tables = ["subscriptions", "invoices", "tickets", "handles", "devices", "memberships"]

    static func database() throws -> Connection {
        let connection = try Connection(try TestCluster.newTwinDatabase("keys").project)
        try connection.execute(unsafeScript: schema + tables.map { table in
            """

            alter table public.\(table) enable row level security;
            create policy "own" on public.\(table) for select using (auth.uid() = user_id);
            """
        }.joined())
        return connection
    }

    @Test func eachPersonaGetsARowOfItsOwnWhateverTheKey() throws {
        let connection = try Self.database()
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })\n\(draft.yaml)")
        #expect(draft.dangerCells.isEmpty, "\(draft.dangerCells)")
        for table in Self.tables {
            let relation = try #require(draft.plan.relations.first { $0.name == table })
            #expect(relation.access["ava"] == Access(select: .own, insert: .nothing, update: .nothing, delete: .nothing), "\(table)")
            #expect(relation.access["ben"] == relation.access["ava"], "\(table)")
        }
        // The sample stays readable; only the setup numbers the personas' keys.
        #expect(draft.yaml.contains(#"id: "'Draft id'""#))
        #expect(draft.yaml.contains("select 'Draft id ' || row_number() over (order by u.email), u.id from auth.users u"))
        #expect(draft.yaml.contains(#"state: "'active'""#))
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.passed, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        #expect(try connection.query("select count(*)::text from public.subscriptions").scalar == "0")
    }

    @Test func theSummaryCountsInTheSingular() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("one").project)
        try connection.execute(unsafeScript: """
            create table public.subscriptions (id text primary key, user_id uuid references auth.users, status text);
            alter table public.subscriptions enable row level security;
            create policy "own" on public.subscriptions for select using (auth.uid() = user_id);
            """)
        let url = try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: "postgres")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("draft-one-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("access-plan.yml").path
        let drafted = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", file])
        #expect(drafted.status == 0, "\(drafted.all)")
        #expect(drafted.standardOutput.contains(
            "plan draft: 1 relation, 0 functions, 0 cells marked DANGER, 0 lint dangers (pgwarden lint); pgwarden test passes with it"),
            "\(drafted.all)")
        let tested = try PgwardenCLI.run(["test", "--database-url", url, "--plan", file])
        #expect(tested.status == 0, "\(tested.all)")
    }

    /// A unique column whose default is one constant (`code text unique default 'm'`):
    /// both personas' rows took it, the second collided, the whole setup entry was lost,
    /// and every cell of the table was "cannot probe". Each row gets its own value.
    @Test func aUniqueColumnWithAConstantDefaultGetsAValuePerPersona() throws {
        let draft = try DraftRealProjectShapesTests.draft("uniquedefault", """
            create table public.members (id uuid primary key default gen_random_uuid(),
              user_id uuid references auth.users (id) on delete cascade, code text not null default 'm' unique);
            alter table public.members enable row level security;
            create policy "own" on public.members for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
            """)
        let members = try #require(draft.plan.relations.first { $0.name == "members" })
        #expect(members.access["ben"]?.update == .own, "\(draft.yaml)")
        #expect(!draft.yaml.contains("cannot probe"), "\(draft.yaml)")
    }
}
