import Foundation
import Testing
import WardenKit
import TestSupport

/// Guarantees 5 and 6: up-only files apply but cannot be rolled back; up, down --all,
/// up again gives the same schema.
@Suite struct ReversibilityTests {
    @Test func anUpOnlyFileAppliesAndDownRefusesBeforeChangingAnything() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_first.sql": "-- migrate:up\ncreate table first (id int);\n-- migrate:down\ndrop table first;\n",
            "2_legacy.sql": "-- exported from another tool\ncreate table legacy (id int);\ncreate index legacy_id on legacy (id);\n",
            "3_last.sql": "-- migrate:up\ncreate table last (id int);\n-- migrate:down\ndrop table last;\n",
        ])
        let arguments = ["--database-url", try database.url, "--migrations", folder.path]
        #expect(try PgwardenCLI.run(["up"] + arguments).status == 0)
        #expect(try database.exists("legacy_id"))

        let refused = try PgwardenCLI.run(["down", "--steps", "2"] + arguments)
        #expect(refused.status == 65)
        #expect(refused.standardError == "pgwarden: \(folder.path)/2_legacy.sql: cannot be rolled back: it is up-only (no `-- migrate:down` section); nothing was changed\n")
        #expect(try database.historyVersions() == ["1", "2", "3"])
        #expect(try database.exists("last"))
        #expect(try PgwardenCLI.run(["down", "--all", "--dry-run"] + arguments).status == 65)

        #expect(try PgwardenCLI.run(["down"] + arguments).status == 0)
        #expect(try !database.exists("last"))
        #expect(try PgwardenCLI.run(["down"] + arguments).status == 65)
        #expect(try database.historyVersions() == ["1", "2"])
    }

    static let fixture = [
        "20260101000100_tables.sql": """
            -- migrate:up
            create type mood as enum ('calm', 'busy');
            create table account (
              id bigint generated always as identity primary key,
              email text not null unique,
              created_at timestamptz not null default now(),
              updated_at timestamptz
            );
            comment on table account is 'People.';
            create table note (
              id serial primary key,
              account_id bigint not null references account (id) on delete cascade,
              body text not null check (length(body) > 0),
              mood mood
            );
            create index note_account_id_idx on note (account_id);
            create unique index note_body_lower_idx on note (account_id, lower(body)) where mood is not null;
            -- migrate:down
            drop table note;
            drop table account;
            drop type mood;
            """,
        "20260101000200_security.sql": """
            -- migrate:up
            alter table note enable row level security;
            create policy note_owner on note for all to public
              using (account_id = nullif(current_setting('app.account', true), '')::bigint)
              with check (account_id = nullif(current_setting('app.account', true), '')::bigint);
            revoke truncate on note from public;
            -- migrate:down
            drop policy note_owner on note;
            alter table note disable row level security;
            """,
        "20260101000300_views_functions_triggers.sql": """
            -- migrate:up
            alter table note add column pinned boolean not null default false;
            create view note_counts with (security_invoker = true) as
              select a.email, count(n.id) as notes from account a left join note n on n.account_id = a.id group by a.email;
            create function touch() returns trigger language plpgsql as $$
            begin
              new.updated_at := now();
              return new;
            end
            $$;
            create trigger account_touch before update on account for each row execute function touch();
            create function note_total() returns bigint language sql stable begin atomic
              select count(*) from note;
            end;
            -- migrate:down
            drop function note_total();
            drop trigger account_touch on account;
            drop function touch();
            drop view note_counts;
            alter table note drop column pinned;
            """,
    ]

    /// `pg_dump --schema-only` of a database.
    func schema(_ database: TestDatabase) throws -> String {
        let cluster = try TestCluster.cluster
        let process = Process()
        process.executableURL = cluster.binaries.directory.appendingPathComponent("pg_dump")
        process.arguments = ["--schema-only", "--no-owner", "--dbname", try database.url]
        let pipeURL = FileManager.default.temporaryDirectory.appendingPathComponent("pgwarden-test-dump-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: pipeURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: pipeURL) }
        process.standardOutput = try FileHandle(forWritingTo: pipeURL)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExitPromptly()
        #expect(process.terminationStatus == 0, "pg_dump failed")
        // pg_dump 15.14+ brackets its output with `\restrict <random key>`; that is no schema.
        return try String(contentsOf: pipeURL, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("\\restrict") && !$0.hasPrefix("\\unrestrict") }.joined(separator: "\n")
    }

    func roundTrip(_ database: TestDatabase, folder: String) throws -> (first: String, empty: String, again: String) {
        let migrator = try Migrator.open(folder: folder, settings: database.settings)
        let applied = try migrator.up()
        #expect(!applied.steps.isEmpty)
        let first = try schema(database)
        let rolledBack = try migrator.down(.all)
        #expect(rolledBack.steps.count == applied.steps.count)
        #expect(try database.historyVersions() == [])
        let empty = try schema(database)
        _ = try migrator.up()
        return (first, empty, try schema(database))
    }

    @Test func upDownAllUpRestoresTheSameSchema() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(Self.fixture)
        let (first, empty, again) = try roundTrip(database, folder: folder.path)
        for object in ["CREATE TABLE public.note", "CREATE INDEX note_account_id_idx", "CREATE POLICY note_owner",
                       "CREATE VIEW public.note_counts", "CREATE FUNCTION public.touch()",
                       "CREATE TRIGGER account_touch", "CREATE TYPE public.mood", "BEGIN ATOMIC"]
        {
            #expect(first.contains(object), "\(object) missing from the first schema")
            #expect(!empty.contains(object), "\(object) left after down --all")
        }
        #expect(first == again)
    }

    @Test func electricRideRoundTripsToTheSameSchema() throws {
        let database = try TestDatabase()
        _ = try SupabaseCompat.bootstrap(database.connection)
        let (first, empty, again) = try roundTrip(database, folder: PackagePaths.electricRideMigrations)
        #expect(try database.historyVersions()?.count == 15)
        #expect(first.contains("CREATE POLICY \"Users manage their own saved listings\""))
        #expect(first.contains("CREATE TRIGGER on_auth_user_created"))
        #expect(!empty.contains("CREATE TABLE public.listing"))
        #expect(first == again)
    }
}
