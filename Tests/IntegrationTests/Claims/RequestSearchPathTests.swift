import Foundation
import Testing
import WardenKit
import TestSupport

/// Each probe runs with the `search_path` PostgREST sets for its request: the request's
/// schema, then `[api] extra_search_path` of the project's `supabase/config.toml`
/// (Supabase's `public, extensions` when not given), whatever the connecting session's
/// own. A helper function without a `search_path` of its own, called by a policy of a
/// custom schema `api`, finds `members` (in `api`) and `registry` (in `helpers`, listed
/// in `extra_search_path`) as behind PostgREST. Before, the probes kept the session's
/// path and ava's reads failed with "relation does not exist".
@Suite struct RequestSearchPathTests {
    static let schema = """
        create schema api;
        create schema helpers;
        grant usage on schema api, helpers to anon, authenticated, service_role;
        create table api.members (user_id uuid primary key);
        create table helpers.registry (user_id uuid primary key);
        create table api.notes (id bigint generated always as identity primary key, body text not null);
        create table api.posts (id bigint generated always as identity primary key, body text not null);
        alter table api.notes enable row level security;
        alter table api.posts enable row level security;
        grant select on api.notes, api.posts to anon, authenticated, service_role;
        -- No search_path of their own: the names resolve through the request's.
        create function helpers.is_member() returns boolean language plpgsql stable security definer as $$
        begin return exists (select 1 from members where user_id = auth.uid()); end $$;
        create function helpers.is_listed() returns boolean language plpgsql stable security definer as $$
        begin return exists (select 1 from registry where user_id = auth.uid()); end $$;
        create policy "members read" on api.notes for select to authenticated using (helpers.is_member());
        create policy "listed read" on api.posts for select to authenticated using (helpers.is_listed());
        insert into api.notes (body) values ('one'), ('two');
        insert into api.posts (body) values ('one'), ('two');
        """

    static let plan = """
        schemas: [api]
        personas:
          anon: { role: anon }
          ava: { role: authenticated, email: ava.path@example.com }
          ben: { role: authenticated, email: ben.path@example.com }
        setup:
          - insert into api.members select id from auth.users where email = 'ava.path@example.com'
          - insert into helpers.registry select id from auth.users where email = 'ava.path@example.com'
        relations:
          notes:
            sample: { body: "'probe'" }
            access:
              anon: none
              ava: read
              ben: none
          posts:
            sample: { body: "'probe'" }
            access:
              anon: none
              ava: read
              ben: none
        """

    /// A Supabase CLI project folder holding the plan and a config.toml with `api`.
    private func project(config: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("searchpath-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("supabase"), withIntermediateDirectories: true)
        try config.write(to: folder.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        try Self.plan.write(to: folder.appendingPathComponent("supabase/access-plan.yml"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func probesResolveNamesAsPostgRESTDoesWhateverTheSessionsSearchPath() throws {
        let (admin, database) = try TestCluster.newTwinDatabase("searchpath")
        try Connection(database).execute(unsafeScript: Self.schema)
        let cluster = try TestCluster.cluster
        let url = cluster.url(database: database.parameters["dbname"] ?? "", user: cluster.projectUser)
        // The session's own search_path names neither schema (and puts auth first).
        let sessionOnAuth = url + "&options=-csearch_path%3Dauth"
        let before = try DatabaseDigest.ofDatabase(try Connection(admin))

        let configured = try project(config: "[api]\nschemas = [\"api\"]\nextra_search_path = [\"public\", \"extensions\", \"helpers\"]\n")
        defer { try? FileManager.default.removeItem(at: configured) }
        let passing = try PgwardenCLI.run(["test", "--database-url", sessionOnAuth], directory: configured.path)
        #expect(passing.status == 0, "\(passing.all)")
        #expect(passing.standardOutput.contains("24 probes, 24 passed, 0 failed"), "\(passing.all)")

        // Supabase's default extra_search_path (public, extensions) lacks helpers: the
        // policy on posts fails (for ava and ben) as it would behind PostgREST; notes still pass.
        let unconfigured = try project(config: "[api]\nschemas = [\"api\"]\n")
        defer { try? FileManager.default.removeItem(at: unconfigured) }
        let failing = try PgwardenCLI.run(["test", "--database-url", sessionOnAuth], directory: unconfigured.path)
        #expect(failing.status == 1, "\(failing.all)")
        #expect(failing.standardOutput.contains("24 probes, 22 passed, 2 failed"), "\(failing.all)")
        #expect(failing.all.contains("relation \"registry\" does not exist"), "\(failing.all)")
        #expect(try DatabaseDigest.ofDatabase(try Connection(admin)) == before)
    }

    /// `lint` proves its findings' consequences with the same requests (each on its
    /// finding's route, with the plan's `extra_search_path`): a definer view whose filter
    /// calls `helpers.is_listed()` is read through it as ava without an error (before,
    /// lint's probes kept the session's path, and the read failed with "relation
    /// \"registry\" does not exist").
    @Test func lintProbesSearchThePlansExtraSearchPath() throws {
        let (admin, database) = try TestCluster.newTwinDatabase("searchpath-lint")
        try Connection(database).execute(unsafeScript: Self.schema + """

            create view api.listed as select id, body from api.posts where helpers.is_listed();
            grant select on api.listed to anon, authenticated;
            """)
        let cluster = try TestCluster.cluster
        let url = cluster.url(database: database.parameters["dbname"] ?? "", user: cluster.projectUser)
        let before = try DatabaseDigest.ofDatabase(try Connection(admin))
        let configured = try project(config: "[api]\nschemas = [\"api\"]\nextra_search_path = [\"public\", \"extensions\", \"helpers\"]\n")
        defer { try? FileManager.default.removeItem(at: configured) }
        let linted = try PgwardenCLI.run(["lint", "--database-url", url], directory: configured.path)
        #expect(linted.standardOutput.contains("security_definer_view api.listed"), "\(linted.all)")
        #expect(linted.standardOutput.contains("ava reads 0 rows of api.listed"), "\(linted.all)")
        #expect(!linted.all.contains("does not exist"), "\(linted.all)")
        #expect(try DatabaseDigest.ofDatabase(try Connection(admin)) == before)
    }
}
