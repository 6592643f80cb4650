import Foundation
import Testing
import WardenKit
import TestSupport

/// A sign-up trigger that copies `raw_user_meta_data ->> 'first_name'` into a NOT NULL
/// column (an HR app, round forty-one): without a plan and without `--user-metadata`,
/// the drafted personas were left out, and a Supabase project did not pass from its root
/// with no flags. They now sign up with the metadata the LEFT OUT hint would have told
/// the user to pass, each its own, and a NOTE says so; `plan draft` writes it into the
/// personas; metadata the user gives is used as it is.
@Suite struct SignUpMetadataGuessTests {
    static let migration = """
        create table public.profiles (
          id uuid primary key references auth.users on delete cascade,
          first_name text not null, last_name text not null
        );
        alter table public.profiles enable row level security;
        create policy "own" on public.profiles for select to authenticated using (id = auth.uid());
        create function public.handle_new_user() returns trigger
        language plpgsql security definer set search_path = '' as $$
        begin
          insert into public.profiles (id, first_name, last_name)
          values (new.id, new.raw_user_meta_data ->> 'first_name', new.raw_user_meta_data ->> 'last_name');
          return new;
        end $$;
        create trigger on_auth_user_created after insert on auth.users
          for each row execute function public.handle_new_user();
        """

    static let note = #"NOTE ava, ben signed up with user_metadata ava={"first_name": "ava", "last_name": "ava"}, "#
        + #"ben={"first_name": "ben", "last_name": "ben"}: without it the sign-up trigger on_auth_user_created "#
        + #"(public.handle_new_user()) on auth.users refused them (23502 null value in column "first_name""#

    private func project() throws -> URL {
        let folder = TestFolder.url("signup-guess")
        let migrations = folder.appendingPathComponent("supabase/migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        try Self.migration.write(to: migrations.appendingPathComponent("20240101000000_init.sql"), atomically: true, encoding: .utf8)
        try "project_id = \"guess\"\n".write(to: folder.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func devWithoutFlagsObservesBothSignedInPersonasAndSaysWhatTheyWereGiven() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
        #expect(run.status == 0, "\(run.all)")
        #expect(run.standardOutput.contains("observed as anon, two signed-in users (ava, ben) and service_role"), "\(run.all)")
        #expect(run.standardOutput.contains(Self.note), "\(run.all)")
        #expect(!run.all.contains("LEFT OUT"), "\(run.all)")
        let profiles = run.standardOutput.split(separator: "\n").first { $0.hasPrefix("public.profiles ") }.map(String.init) ?? ""
        #expect(profiles.contains("s··· ✓   s··· ✓"), "\(run.all)")
        // Given by the user: used as given, and no NOTE.
        let given = try PgwardenCLI.run(["dev", "--user-metadata", #"{"first_name": "A", "last_name": "B"}"#],
                                        environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
        #expect(given.status == 0, "\(given.all)")
        #expect(!given.standardOutput.contains("signed up with user_metadata"), "\(given.all)")
    }

    @Test func lintAndPlanDraftGiveThePersonasTheMetadata() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("signupguess")
        _ = try Connection(project).execute(unsafeScript: Self.migration)
        let url = try TestCluster.cluster.url(database: project.parameters["dbname"] ?? "", user: "postgres")
        let before = try DatabaseDigest.ofDatabase(try Connection(admin))
        let folder = TestFolder.url("signup-guess-lint")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lint = try PgwardenCLI.run(["lint", "--database-url", url], directory: folder.path)
        #expect(lint.status == 0, "\(lint.all)")
        #expect(lint.standardOutput.contains(Self.note), "\(lint.all)")
        #expect(lint.standardOutput.contains("probe: ava called public.handle_new_user()"), "\(lint.all)")
        let plan = folder.appendingPathComponent("access-plan.yml").path
        let draft = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", plan], directory: folder.path)
        #expect(draft.status == 0, "\(draft.all)")
        #expect(draft.standardOutput.contains("pgwarden test passes with it"), "\(draft.all)")
        #expect(draft.standardOutput.contains(Self.note), "\(draft.all)")
        let yaml = try String(contentsOfFile: plan, encoding: .utf8)
        #expect(yaml.contains(#"metadata: {"first_name": "ava", "last_name": "ava"}"#), "\(yaml)")
        let test = try PgwardenCLI.run(["test", "--database-url", url, "--plan", plan], directory: folder.path)
        #expect(test.status == 0, "\(test.all)")
        #expect(try DatabaseDigest.ofDatabase(try Connection(admin)) == before)
    }
}
