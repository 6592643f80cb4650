import Foundation
import Testing
import WardenKit
import TestSupport

/// Where there is no plan to say which schemas are exposed, pgwarden looks where the
/// project's Data API looks: the project's own schemas among `[api] schemas` of its
/// `supabase/config.toml` (Supabase's own, `graphql_public` and `storage` here, left
/// out), else `public`. `test` and `dev` without a plan observe them, `plan draft`
/// drafts them (and writes them as the plan's `schemas`), `lint` checks them. Before,
/// all three looked at `public` only, whatever the project exposed. A configured schema
/// the database does not have (yet: `not_yet` here) is left out with a note, not an
/// error, as the Supabase CLI does not refuse it.
@Suite struct ConfiguredSchemasTests {
    static let schema = """
        create schema api;
        grant usage on schema api to anon, authenticated, service_role;
        create table api.notes (
          id bigint generated always as identity primary key,
          owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
          body text not null);
        alter table api.notes enable row level security;
        grant select, insert, update, delete on api.notes to authenticated, service_role;
        create policy "own notes" on api.notes for all to authenticated
          using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
        -- No row-level security, and anon may write: a danger wherever it is exposed.
        create table api.open_notes (id bigint generated always as identity primary key, body text);
        grant select, insert, update, delete on api.open_notes to anon, authenticated, service_role;
        create table public.tags (id bigint generated always as identity primary key, name text not null);
        alter table public.tags enable row level security;
        grant select on public.tags to anon, authenticated, service_role;
        create policy "read tags" on public.tags for select using (true);
        insert into public.tags (name) values ('one');
        """

    static let config = """
        [api]
        schemas = ["api", "not_yet", "public", "graphql_public", "storage"]
        """

    /// A twin database with the schema above, its project URL, and the admin settings.
    private func database() throws -> (url: String, admin: ConnectionSettings) {
        let (admin, database) = try TestCluster.newTwinDatabase("exposed")
        try Connection(database).execute(unsafeScript: Self.schema)
        let cluster = try TestCluster.cluster
        return (cluster.url(database: database.parameters["dbname"] ?? "", user: cluster.projectUser), admin)
    }

    /// A Supabase CLI project folder (no plan yet), with `config` as its config.toml.
    private func project(config: String?) throws -> URL {
        let folder = TestFolder.url("exposed")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("supabase"), withIntermediateDirectories: true)
        if let config {
            try config.write(to: folder.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func aPlanlessTestObservesTheConfiguredSchemas() throws {
        let (url, admin) = try database()
        let before = try DatabaseDigest.ofDatabase(try Connection(admin))
        let configured = try project(config: Self.config)
        let observed = try PgwardenCLI.run(["test", "--database-url", url], directory: configured.path)
        #expect(observed.status == 0, "\(observed.all)")
        #expect(observed.standardOutput.contains("api.notes"), "\(observed.all)")
        #expect(observed.standardOutput.contains("DANGER api.open_notes · anon"), "\(observed.all)")
        #expect(observed.standardOutput.contains("public.tags"), "\(observed.all)")
        #expect(!observed.standardOutput.contains("graphql_public"), "\(observed.all)")
        #expect(!observed.standardOutput.contains("storage.objects"), "\(observed.all)")
        let note = "note: config.toml's [api] schemas names 'not_yet', which the database does not have: left out"
        #expect(observed.standardError.contains(note), "\(observed.all)")

        // Without config.toml: public only, as the Supabase CLI's default exposes.
        let plain = try PgwardenCLI.run(["test", "--database-url", url], directory: try project(config: nil).path)
        #expect(plain.status == 0, "\(plain.all)")
        #expect(plain.standardOutput.contains("public.tags"), "\(plain.all)")
        #expect(!plain.standardOutput.contains("api.notes"), "\(plain.all)")
        #expect(try DatabaseDigest.ofDatabase(try Connection(admin)) == before)
    }

    @Test func planDraftWritesTheConfiguredSchemasAndTheDraftPasses() throws {
        let (url, admin) = try database()
        let before = try DatabaseDigest.ofDatabase(try Connection(admin))
        let folder = try project(config: Self.config)
        let plan = "supabase/access-plan.yml"
        let drafted = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", plan], directory: folder.path)
        #expect(drafted.status == 0, "\(drafted.all)")
        #expect(drafted.standardError.contains("schemas names 'not_yet', which the database does not have: left out"), "\(drafted.all)")
        let yaml = try String(contentsOf: folder.appendingPathComponent(plan), encoding: .utf8)
        #expect(yaml.contains("schemas: [api, public]"), "\(yaml)")
        // The first schema is the default one: its relations are written unqualified.
        #expect(yaml.contains("\n  notes:\n"), "\(yaml)")
        #expect(yaml.contains("\n  \"public.tags\":\n"), "\(yaml)")
        #expect(!yaml.contains("storage."), "\(yaml)")
        let tested = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(tested.status == 0, "\(tested.all)")

        // --schema still chooses.
        let only = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--schema", "public"], directory: folder.path)
        #expect(only.status == 0, "\(only.all)")
        #expect(only.standardOutput.contains("schemas: [public]"), "\(only.all)")
        #expect(!only.standardOutput.contains("api."), "\(only.all)")
        // A schema named with --schema must exist.
        let missing = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--schema", "not_yet"], directory: folder.path)
        #expect(missing.status == 65, "\(missing.all)")
        #expect(missing.standardError.contains("schema 'not_yet' does not exist in the database"), "\(missing.all)")
        #expect(try DatabaseDigest.ofDatabase(try Connection(admin)) == before)
    }

    /// A plan that names no schemas checks those config.toml exposes, as a run without a
    /// plan observes them: an exposed table the plan leaves out fails the run. Before,
    /// such a plan checked `public` only and passed. A plan that names its schemas keeps
    /// them, and a note names each exposed one it leaves out. A configured schema the database
    /// lacks is refused with config.toml named (the plan's names were resolved against
    /// the configured schemas), and nothing is changed.
    @Test func aPlanWithoutSchemasChecksTheConfiguredSchemas() throws {
        let (url, admin) = try database()
        let before = try DatabaseDigest.ofDatabase(try Connection(admin))
        let folder = try project(config: "[api]\nschemas = [\"public\", \"graphql_public\", \"api\"]\n")
        let plan = folder.appendingPathComponent("supabase/access-plan.yml")
        let drafted = try PgwardenCLI.run(
            ["plan", "draft", "--database-url", url, "--schema", "public", "--output", "supabase/access-plan.yml"], directory: folder.path)
        #expect(drafted.status == 0, "\(drafted.all)")
        let named = try String(contentsOf: plan, encoding: .utf8)
        #expect(named.contains("schemas: [public]\n"), "\(named)")
        let publicOnly = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(publicOnly.status == 0, "\(publicOnly.all)")
        #expect(!publicOnly.standardOutput.contains("api."), "\(publicOnly.all)")
        let leftOut = "note: supabase/config.toml exposes schema 'api' ([api] schemas), which the plan's schemas (supabase/access-plan.yml:"
        #expect(publicOnly.standardError.contains(leftOut), "\(publicOnly.all)")

        try named.replacingOccurrences(of: "schemas: [public]\n", with: "").write(to: plan, atomically: true, encoding: .utf8)
        let configured = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(configured.status == 1, "\(configured.all)")
        #expect(configured.standardOutput.contains("observed table api.open_notes is exposed but not in the plan"), "\(configured.all)")
        #expect(configured.standardOutput.contains("observed table api.notes is exposed but not in the plan"), "\(configured.all)")
        #expect(!configured.standardError.contains("leave out"), "\(configured.all)")

        try "[api]\nschemas = [\"public\", \"not_yet\"]\n"
            .write(to: folder.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        for command in ["test", "lint"] {
            let missing = try PgwardenCLI.run([command, "--database-url", url], directory: folder.path)
            #expect(missing.status == 65, "\(command): \(missing.all)")
            #expect(missing.standardError.contains(
                "supabase/config.toml: [api] schemas names 'not_yet', which does not exist in the database; supabase/access-plan.yml names no schemas"),
                "\(command): \(missing.all)")
        }
        #expect(try DatabaseDigest.ofDatabase(try Connection(admin)) == before)
    }

    @Test func lintChecksTheConfiguredSchemasWhenThereIsNoPlan() throws {
        let (url, _) = try database()
        let configured = try PgwardenCLI.run(["lint", "--database-url", url], directory: try project(config: Self.config).path)
        #expect(configured.all.contains("rls_disabled_in_public api.open_notes"), "\(configured.all)")
        #expect(configured.standardError.contains("schemas names 'not_yet', which the database does not have: left out"), "\(configured.all)")
        let plain = try PgwardenCLI.run(["lint", "--database-url", url], directory: try project(config: nil).path)
        #expect(!plain.all.contains("api.open_notes"), "\(plain.all)")
    }

    /// A value that is not an array of names is refused with the file, before anything
    /// connects and without writing the plan.
    @Test func aMalformedSchemasValueIsRefusedBeforeConnecting() throws {
        let folder = try project(config: "[api]\nschemas = \"api\"\n")
        let unreachable = "postgresql://nobody@/postgres?host=/nonexistent-socket-folder&port=1"
        let plan = "supabase/access-plan.yml"
        for arguments in [["plan", "draft", "--output", plan], ["test"], ["lint"]] {
            let result = try PgwardenCLI.run(arguments + ["--database-url", unreachable], directory: folder.path)
            #expect(result.status == 65, "\(arguments): \(result.all)")
            #expect(result.standardError.contains("config.toml: [api] schemas must be an array of schema names"), "\(result.all)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(plan).path))
    }
}
