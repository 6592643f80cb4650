import Foundation
import Testing
import TestSupport

/// `plan draft`, `lint` and `test` given no database at all (no --database-url, no
/// DATABASE_URL, no PG* variable), in a project's root: each runs on a throwaway twin
/// of the project, as `dev` does, so the hint `dev` prints (`pgwarden plan draft
/// --output supabase/access-plan.yml`, then `pgwarden test`) works on a new machine.
/// It failed to connect to libpq's default socket. The twin's lines go to standard
/// error: the plan written to standard output is the plan alone.
///
/// The project's notes table has an AFTER INSERT trigger that logs `auth.uid()` into a
/// NOT NULL column: the drafted setup makes each persona's row with its claims, as
/// the persona's own request would. Made by the admin with none, the trigger refused
/// every row, and 18 of the 48 cells could not be stated.
@Suite struct NoDatabaseTwinTests {
    static let migration = """
        create table public.notes (
          id bigint generated always as identity primary key,
          user_id uuid not null references auth.users (id) default auth.uid(),
          body text not null
        );
        alter table public.notes enable row level security;
        create policy "own read" on public.notes for select to authenticated using (user_id = auth.uid());
        create policy "own insert" on public.notes for insert to authenticated with check (user_id = auth.uid());
        grant select, insert on public.notes to authenticated;

        create table public.activity (
          id bigint generated always as identity primary key,
          actor uuid not null,
          what text not null
        );
        alter table public.activity enable row level security;
        create policy "own activity" on public.activity for select to authenticated using (actor = auth.uid());
        grant select on public.activity to authenticated;

        create function public.log_note() returns trigger language plpgsql security definer set search_path = '' as $$
        begin
          insert into public.activity (actor, what) values (auth.uid(), 'note ' || new.id);
          return new;
        end $$;
        create trigger notes_log after insert on public.notes for each row execute function public.log_note();
        """

    private func project(migration: String = Self.migration) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("no-database-\(UUID().uuidString)")
        let migrations = root.appendingPathComponent("supabase/migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        try migration.write(to: migrations.appendingPathComponent("20260101000000_notes.sql"), atomically: true, encoding: .utf8)
        try "project_id = \"notes\"\n".write(to: root.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        return root
    }

    @Test func draftThenTestAndLintRunOnATwinWhenNoDatabaseIsGiven() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let draft = try PgwardenCLI.run(["plan", "draft", "--output", "supabase/access-plan.yml"], directory: root.path)
        #expect(draft.status == 0, "\(draft.all)")
        #expect(draft.standardError.contains("database: none given"), "\(draft.all)")
        #expect(draft.standardError.contains("applied 20260101000000 notes"), "\(draft.all)")
        // Every persona's note was made, so every cell is stated.
        #expect(draft.standardOutput.contains("pgwarden test passes with it"), "\(draft.all)")
        let plan = try String(contentsOf: root.appendingPathComponent("supabase/access-plan.yml"), encoding: .utf8)
        #expect(plan.contains("perform set_config('request.jwt.claims', json_build_object('sub', persona.id"), "\(plan)")
        #expect(!plan.contains("# NOTE:"), "\(plan)")

        let test = try PgwardenCLI.run(["test"], directory: root.path)
        #expect(test.status == 0, "\(test.all)")
        #expect(test.standardOutput.contains("48 probes, 48 passed, 0 failed"), "\(test.all)")
        #expect(test.standardError.contains("database: none given"), "\(test.all)")

        let lint = try PgwardenCLI.run(["lint", "--format", "json"], directory: root.path)
        #expect(lint.status == 0, "\(lint.all)")
        // Standard output is the report alone.
        #expect(lint.standardOutput.hasPrefix("{"), "\(lint.all)")
        #expect(lint.standardOutput.contains("log_note"), "\(lint.all)")
    }

    @Test func theDraftOnStandardOutputIsThePlanAlone() throws {
        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let draft = try PgwardenCLI.run(["plan", "draft"], directory: root.path)
        #expect(draft.status == 0, "\(draft.all)")
        #expect(draft.standardOutput.hasPrefix("# A starting access plan"), "\(draft.all)")
        #expect(!draft.standardOutput.contains("server: PostgreSQL"), "\(draft.all)")
        #expect(draft.standardError.contains("server: PostgreSQL"), "\(draft.all)")
    }

    @Test func aBrokenMigrationIsNamedAndNothingIsWritten() throws {
        let root = try project(migration: "create table public.notes (id bigint primary key);\nselect from nowhere_at_all;\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let draft = try PgwardenCLI.run(["plan", "draft", "--output", "supabase/access-plan.yml"], directory: root.path)
        #expect(draft.status != 0, "\(draft.all)")
        #expect(draft.standardError.contains("20260101000000_notes.sql:2"), "\(draft.all)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("supabase/access-plan.yml").path))
    }

    /// Without a project, or with a database named, nothing changes: the command
    /// connects where it is told (here: nowhere, so it says what to do).
    @Test func withoutAProjectOrWithADatabaseItConnectsAsBefore() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let bare = try PgwardenCLI.run(
            ["plan", "draft"], environment: ["PGHOST": "/nonexistent"], directory: empty.path)
        #expect(bare.status == 69, "\(bare.all)")
        #expect(!bare.standardError.contains("database: none given"), "\(bare.all)")

        let root = try project()
        defer { try? FileManager.default.removeItem(at: root) }
        let named = try PgwardenCLI.run(
            ["lint", "--database-url", "postgresql://postgres@/postgres?host=/nonexistent"], directory: root.path)
        #expect(named.status == 69, "\(named.all)")
        #expect(!named.standardError.contains("database: none given"), "\(named.all)")
    }
}
