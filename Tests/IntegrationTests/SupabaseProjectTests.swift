import Foundation
import Testing
import WardenKit
import TestSupport

/// A Supabase CLI project (Fixtures/SupabaseProject) driven by the built executable
/// from its root with no flags: the layout is found by itself, migrations apply in
/// file-name order, a placeholder is an empty migration, the seed glob of config.toml
/// applies, and the history is shared with the Supabase CLI's.
@Suite struct SupabaseProjectTests {
    static let fixture = PackagePaths.root.appendingPathComponent("Tests/IntegrationTests/Fixtures/SupabaseProject").path
    static let versions = ["20230104160241", "20230201000000", "202406201411", "20240701000000"]

    func run(_ arguments: [String], _ database: ConnectionSettings, in directory: String = fixture) throws
        -> PgwardenCLI.Output
    {
        try PgwardenCLI.run(arguments, environment: ["DATABASE_URL": url(database)], directory: directory)
    }

    func url(_ settings: ConnectionSettings) throws -> String {
        try TestCluster.cluster.url(database: settings.parameters["dbname"] ?? "", user: settings.parameters["user"])
    }

    /// The fixture copied to a temporary folder a test may change.
    func copy() throws -> String {
        let path = NSTemporaryDirectory() + "pgwarden-supabase-\(UUID().uuidString.prefix(8))"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        return path
    }

    @Test func upStatusAndSeedFindTheProjectByThemselves() throws {
        let (_, project) = try TestCluster.newTwinDatabase("supa")
        let db = try Connection(project)
        let before = try run(["status"], project)
        #expect(before.status == 2, "\(before.all)")
        #expect(before.standardError.hasPrefix(
            "layout: Supabase CLI project (migrations supabase/migrations, seeds supabase/seeds/01_golfers.sql, "
                + "supabase/seeds/02_scores.sql, no tests folder, no plan yet (supabase/access-plan.yml))\n"))
        #expect(before.standardOutput.contains(
            "order: file-name order, as the Supabase CLI and dbmate apply this folder: 20230201000000_applied_on_hosted.sql "
                + "applies before 202406201411_add_golfer_invalid_col.sql"))

        let up = try run(["up"], project)
        #expect(up.status == 0, "\(up.all)")
        #expect(try db.query("select count(*) from public.golfer where not invalid").scalar == "0")  // the 12-digit file ran
        #expect(try db.query("select string_agg(version, ',' order by version) from pgwarden.schema_migrations").scalar
            == Self.versions.sorted().joined(separator: ","))
        // Recorded as the Supabase CLI records it: version, name, statements (none for the placeholder).
        let rows = try db.query(
            "select version, name, cardinality(statements) from supabase_migrations.schema_migrations order by version").rows
        #expect(rows.map { $0.map { $0 ?? "null" } } == [
            ["20230104160241", "init", "3"], ["20230201000000", "applied_on_hosted", "0"],
            ["202406201411", "add_golfer_invalid_col", "1"], ["20240701000000", "scores", "3"],
        ])

        #expect(try db.query(
            "select statements[3] from supabase_migrations.schema_migrations where version = '20230104160241'").scalar
            == "create policy \"golfers read golfers\" on public.golfer for select to authenticated using (true);")

        let after = try run(["status", "--format", "json"], project)
        #expect(after.status == 0, "\(after.all)")
        #expect(after.standardOutput.hasPrefix("{"))  // the layout line stays on standard error
        let document = try #require(try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as? [String: Any])
        #expect((document["order_notes"] as? [String])?.first?.hasPrefix("order: file-name order") == true)

        let seed = try run(["seed"], project)
        #expect(seed.status == 0, "\(seed.all)")
        #expect(seed.standardOutput == "seeded 2 files from supabase/seeds/01_golfers.sql, supabase/seeds/02_scores.sql\n")
        #expect(try db.query("select count(*) from public.golfer").scalar == "2")
        #expect(try db.query("select count(*) from public.score").scalar == "1")
    }

    /// What `supabase db push` leaves: the migrations' objects, and one row per file in
    /// supabase_migrations.schema_migrations (the table made as the CLI makes it).
    func pushLikeTheSupabaseCLI(_ files: [String], on db: Connection) throws {
        try db.execute(
            """
            create schema if not exists supabase_migrations;
            create table if not exists supabase_migrations.schema_migrations (version text not null primary key);
            alter table supabase_migrations.schema_migrations add column if not exists statements text[];
            alter table supabase_migrations.schema_migrations add column if not exists name text;
            -- columns newer CLI versions add; pgwarden leaves them to their defaults
            alter table supabase_migrations.schema_migrations add column if not exists created_by text;
            alter table supabase_migrations.schema_migrations add column if not exists idempotency_key text;
            """)
        for file in files {
            let text = try String(contentsOfFile: "\(Self.fixture)/supabase/migrations/\(file)", encoding: .utf8)
            _ = try db.execute(unsafeScript: text)
            let version = String(file.prefix { $0 != "_" })
            let name = String(file.dropFirst(version.count + 1).dropLast(4))
            try db.query(
                "insert into supabase_migrations.schema_migrations (version, name, statements) values (\(version), \(name), \(array: [text])::text[])")
        }
    }

    @Test func aDatabaseMigratedBySupabaseDbPushIsNeverMigratedTwice() throws {
        let (_, project) = try TestCluster.newTwinDatabase("push")
        let db = try Connection(project)
        try pushLikeTheSupabaseCLI(
            ["20230104160241_init.sql", "20230201000000_applied_on_hosted.sql", "202406201411_add_golfer_invalid_col.sql"],
            on: db)
        let status = try run(["status"], project)
        #expect(status.status == 2, "\(status.all)")
        #expect(status.standardOutput.components(separatedBy: "applied by the Supabase CLI").count - 1 == 3)
        #expect(status.standardOutput.contains("4 migrations: 3 applied, 1 pending"))

        let up = try run(["up"], project)
        #expect(up.status == 0, "\(up.all)")
        #expect(try db.query("select string_agg(version, ',') from pgwarden.schema_migrations").scalar == "20240701000000")
        #expect(try db.query("select count(*) from supabase_migrations.schema_migrations").scalar == "4")
        #expect(try run(["status"], project).status == 0)
    }

    @Test func projectNamesTheFolderFromElsewhere() throws {
        let (_, project) = try TestCluster.newTwinDatabase("elsewhere")
        let up = try run(["up", "--project", Self.fixture], project, in: NSTemporaryDirectory())
        #expect(up.status == 0, "\(up.all)")
        #expect(up.standardError.hasPrefix("layout: Supabase CLI project (migrations \(Self.fixture)/supabase/migrations"))
        #expect(try Connection(project).query("select count(*) from supabase_migrations.schema_migrations").scalar == "4")
    }

    @Test func newWritesAnEmptyUpOnlyFileInASupabaseProject() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let created = try PgwardenCLI.run(["new", "add handicap"], directory: root)
        #expect(created.status == 0, "\(created.all)")
        let path = created.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path.hasPrefix("supabase/migrations/") && path.hasSuffix("_add_handicap.sql"), "\(path)")
        #expect(try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8) == "")
    }

    @Test func aRollbackIsRecordedInBothHistoriesAndADisagreementIsExplained() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("-- migrate:up\ncreate table public.course (id int);\n-- migrate:down\ndrop table public.course;\n".utf8)
            .write(to: URL(fileURLWithPath: "\(root)/supabase/migrations/20250101000000_course.sql"))
        let (_, project) = try TestCluster.newTwinDatabase("rollback")
        let db = try Connection(project)
        #expect(try run(["up"], project, in: root).status == 0)
        let cliVersions: SQL = "select string_agg(version, ',' order by version) from supabase_migrations.schema_migrations"
        #expect(try db.query(cliVersions).scalar?.hasSuffix(",20250101000000") == true)
        let down = try run(["down"], project, in: root)
        #expect(down.status == 0, "\(down.all)")
        #expect(try db.query(cliVersions).scalar?.contains("20250101000000") == false)
        #expect(try db.query("select to_regclass('public.course') is null").scalar == "t")
        // A version pgwarden applied that the CLI's table lacks is named, not re-run.
        try db.query("delete from supabase_migrations.schema_migrations where version = '20240701000000'")
        let status = try run(["status"], project, in: root)
        #expect(status.status == 2, "\(status.all)")  // only 20250101000000 is pending
        #expect(status.standardOutput.contains(
            "applied by pgwarden but not in supabase_migrations.schema_migrations: `supabase migration list` does not show it"))
    }

    /// Both histories' rows go with the migration's COMMIT: when the Supabase CLI's
    /// refuses its row, nothing of that migration stays, in either history.
    @Test func aRefusedSupabaseHistoryRowRollsItsMigrationBack() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(("-- migrate:up\ncreate table public.course (id int);\n"
            + "alter table supabase_migrations.schema_migrations add constraint no_course check (version <> '20250101000000');\n").utf8)
            .write(to: URL(fileURLWithPath: "\(root)/supabase/migrations/20250101000000_course.sql"))
        let (_, project) = try TestCluster.newTwinDatabase("refused")
        let db = try Connection(project)
        let up = try run(["up"], project, in: root)
        #expect(up.status == 1, "\(up.all)")
        #expect(up.standardError.contains("recording the migration in the history failed"), "\(up.all)")
        #expect(try db.query("select to_regclass('public.course') is null").scalar == "t")
        #expect(try db.query("select count(*) from pgwarden.schema_migrations where version = '20250101000000'").scalar == "0")
        #expect(try db.query("select count(*) from supabase_migrations.schema_migrations").scalar == "4")
        #expect(try db.query("select count(*) from pg_constraint where conname = 'no_course'").scalar == "0")
    }

    @Test func aMalformedConfigIsOneLineAndChangesNothing() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("project_id = \"golf\"\n[db.seed\n".utf8).write(to: URL(fileURLWithPath: "\(root)/supabase/config.toml"))
        let (_, project) = try TestCluster.newTwinDatabase("badcfg")
        let up = try run(["up"], project, in: root)
        #expect(up.status == 65, "\(up.all)")
        #expect(up.standardError.hasPrefix("pgwarden: supabase/config.toml:2: malformed config.toml: "), "\(up.all)")
        #expect(up.standardError.filter { $0 == "\n" }.count == 1)
        #expect(try Connection(project).query("select to_regclass('pgwarden.schema_migrations') is null").scalar == "t")
        // dev refuses it before starting a server.
        let dev = try PgwardenCLI.run(["dev"], directory: root)
        #expect(dev.status == 65, "\(dev.all)")
        #expect(!dev.standardOutput.contains("server:"))
    }

    @Test func devRunsTheWholeProjectWithATinyPlan() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(Self.tinyPlan.utf8).write(to: URL(fileURLWithPath: "\(root)/supabase/access-plan.yml"))
        let dev = try PgwardenCLI.run(["dev"], directory: root)
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.standardError.contains("plan supabase/access-plan.yml)"))
        #expect(dev.standardOutput.contains("seed: applied 2 files from supabase/seeds/01_golfers.sql"))
    }

    @Test func devWarnsWhenTheProjectAsksForAnotherPostgresMajorVersion() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let config = URL(fileURLWithPath: "\(root)/supabase/config.toml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try text.replacingOccurrences(of: "major_version = 15", with: "major_version = 99")
            .write(to: config, atomically: true, encoding: .utf8)
        let dev = try PgwardenCLI.run(["dev"], directory: root)
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.standardError.contains("note: supabase/config.toml's [db] major_version is 99, but this run's server is PostgreSQL "),
                "\(dev.standardError)")
        let plain = try PgwardenCLI.run(["dev"], directory: Self.fixture)
        #expect(plain.status == 0, "\(plain.all)")
        #expect(!plain.standardError.contains("major_version"), "\(plain.standardError)")
    }

    /// `[api] enabled = false` (a project whose own server signs users in): the matrix is
    /// what the roles would meet with the Data API on, and `dev` says the API is off.
    @Test func devSaysWhenTheProjectTurnsTheDataAPIOff() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let config = URL(fileURLWithPath: "\(root)/supabase/config.toml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try text.replacingOccurrences(of: "[api]\nenabled = true", with: "[api]\nenabled = false")
            .write(to: config, atomically: true, encoding: .utf8)
        let dev = try PgwardenCLI.run(["dev"], directory: root)
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.standardError.contains("note: supabase/config.toml's [api] enabled is false: the Data API is off"),
                "\(dev.standardError)")
        let plain = try PgwardenCLI.run(["dev"], directory: Self.fixture)
        #expect(!plain.standardError.contains("[api] enabled"), "\(plain.standardError)")
    }

    @Test func devRefusesBadMigrationsBeforeStartingAServer() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(Self.tinyPlan.utf8).write(to: URL(fileURLWithPath: "\(root)/supabase/access-plan.yml"))
        try Data("-- migrate:upp\ncreate table x (id int);\n".utf8)
            .write(to: URL(fileURLWithPath: "\(root)/supabase/migrations/20250101000000_typo.sql"))
        let dev = try PgwardenCLI.run(["dev"], directory: root)
        #expect(dev.status == 65, "\(dev.all)")
        #expect(dev.standardError.contains("supabase/migrations/20250101000000_typo.sql:1"), "\(dev.all)")
        #expect(!dev.standardOutput.contains("server:"), "\(dev.all)")
    }

    @Test func seedWithoutSeedFilesIsNoError() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.removeItem(atPath: "\(root)/supabase/seeds")
        let (_, project) = try TestCluster.newTwinDatabase("noseed")
        let seed = try run(["seed"], project, in: root)
        #expect(seed.status == 0, "\(seed.all)")
        #expect(seed.standardOutput == "no seed file matches [db.seed] sql_paths; nothing applied\n")
        #expect(seed.standardError.contains("[db.seed] ./seeds/*.sql: no file matches; skipped"))
    }

    @Test func aFailingSeedFileRollsBackEverySeedFile() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("insert into public.score (golfer_id, strokes) values (1, -3);\n".utf8)
            .write(to: URL(fileURLWithPath: "\(root)/supabase/seeds/02_scores.sql"))
        let (_, project) = try TestCluster.newTwinDatabase("badseed")
        #expect(try run(["up"], project, in: root).status == 0)
        let seed = try run(["seed"], project, in: root)
        #expect(seed.status == 1, "\(seed.all)")
        #expect(seed.standardError.contains("pgwarden: supabase/seeds/02_scores.sql:1: ERROR: "), "\(seed.all)")
        #expect(seed.standardError.contains("(all seed files rolled back)"), "\(seed.all)")
        #expect(try Connection(project).query("select count(*) from public.golfer").scalar == "0")
        // A seed file that would end the transaction is refused before anything runs.
        try Data("commit;\n".utf8).write(to: URL(fileURLWithPath: "\(root)/supabase/seeds/02_scores.sql"))
        let sealed = try run(["seed"], project, in: root)
        #expect(sealed.status == 65, "\(sealed.all)")
        #expect(sealed.standardError.contains("supabase/seeds/02_scores.sql:1: "), "\(sealed.all)")
        #expect(try Connection(project).query("select count(*) from public.golfer").scalar == "0")
        // dev refuses it before a server starts.
        let dev = try PgwardenCLI.run(["dev"], directory: root)
        #expect(dev.status == 65, "\(dev.all)")
        #expect(dev.standardError.contains("supabase/seeds/02_scores.sql:1: `COMMIT`: a COMMIT without a BEGIN before it"), "\(dev.all)")
        #expect(!dev.standardOutput.contains("server:"), "\(dev.all)")
    }

    /// `dev --keep` said "the server stays up after the run", then a plan whose setup
    /// failed ended the run with exit 65 and the server was deleted (a ticketing app's
    /// sign-up trigger, round thirty-five): a failing run is when a user most wants to
    /// look. The error is said, the server kept, and Ctrl-C still deletes it.
    @Test func devKeepKeepsTheServerWhenTheRunFails() throws {
        let root = try copy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let plan = Self.tinyPlan.replacingOccurrences(
            of: "insert into public.score (golfer_id, strokes) select id, 72 from public.golfer", with: "select 1 / 0")
        try plan.write(toFile: "\(root)/supabase/access-plan.yml", atomically: true, encoding: .utf8)
        let running = try PgwardenCLI.start(["dev", "--keep"], environment: PgwardenCLI.cleanEnvironment(), directory: root)
        let settings = try ConnectionSettings(try #require(running.keptServerURL()))
        let directory = try #require(settings.parameters["host"])
        #expect(try Connection(settings).query("select to_regclass('public.golfer')::text").scalar == "golfer")
        kill(running.process.processIdentifier, SIGINT)
        let output = running.wait()
        #expect(output.standardError.contains("division by zero"), "\(output.all)")
        #expect(output.status != 0, "\(output.all)")
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    static let tinyPlan = """
        schemas: [public]
        personas:
          anon: { role: anon }
          ada: { role: authenticated, email: ada.plan@example.com }
          bob: { role: authenticated, email: bob.plan@example.com }
          service: { role: service_role }
        setup:
          - |
            insert into public.golfer (user_id, name)
            select id, email from auth.users where email like '%.plan@example.com'
          - insert into public.score (golfer_id, strokes) select id, 72 from public.golfer
        relations:
          golfer:
            owner: user_id = auth.uid()
            sample: { name: "'Probe golfer'", user_id: auth.uid() }
            access: { anon: none, authenticated: read, service_role: all }
          score:
            owner: golfer_id in (select id from public.golfer where user_id = auth.uid())
            sample: { golfer_id: "(select min(id) from public.golfer where user_id = auth.uid())", strokes: "70" }
            access: { anon: none, authenticated: read, service_role: all }

        """
}
