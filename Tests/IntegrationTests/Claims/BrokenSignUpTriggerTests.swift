import Foundation
import Testing
import WardenKit
import TestSupport

/// A sign-up trigger that is broken for every user (it reads `new.user_id`, a column
/// auth.users does not have: 42703), as a real template shipped it. pgwarden left the
/// personas out and offered `--user-metadata` as the way out, which no metadata can be;
/// now it says the trigger fails whatever the metadata, and that on Supabase every
/// sign-up fails the same way. A trigger that needs metadata still gets that hint.
@Suite struct BrokenSignUpTriggerTests {
    static let migration = """
        create table public.rate_limits (user_id uuid primary key references auth.users on delete cascade, used int not null default 0);
        alter table public.rate_limits enable row level security;
        create function public.initialize_user_rate_limits() returns trigger
        language plpgsql security definer set search_path = '' as $$
        begin
          insert into public.rate_limits (user_id) values (new.user_id);
          return new;
        end $$;
        create trigger initialize_user_rate_limits_trigger after insert on auth.users
          for each row execute function public.initialize_user_rate_limits();
        """

    @Test func aTriggerBrokenForEveryUserIsNamedAsSuchWithoutTheMetadataHint() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("brokensignup")
        _ = try Connection(project).execute(unsafeScript: Self.migration)
        let url = try TestCluster.cluster.url(database: project.parameters["dbname"] ?? "", user: "postgres")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("broken-signup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try DatabaseDigest.ofDatabase(try Connection(admin))
        let run = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(run.status == 1, "\(run.all)")
        #expect(run.standardOutput.contains("LEFT OUT ava, ben"), "\(run.all)")
        #expect(run.standardOutput.contains("42703 record \"new\" has no field \"user_id\""), "\(run.all)")
        #expect(run.standardOutput.contains(
            "hint: the trigger fails whatever the user's metadata (SQLSTATE 42703): on Supabase every sign-up fails the same way "
            + "(Supabase Auth answers 500 \"Database error saving new user\"); fix the trigger's function"), "\(run.all)")
        #expect(!run.all.contains("--user-metadata"), "\(run.all)")
        // Nor the invitation hint: the trigger reads no metadata, but it is broken, not choosy.
        #expect(!run.all.contains("the trigger reads no user metadata"), "\(run.all)")
        #expect(try DatabaseDigest.ofDatabase(try Connection(admin)) == before)
    }

    /// With a plan, the run stops at the persona whose sign-up failed (the plan is
    /// wrong or the database is): the message says the same, not "give it metadata".
    @Test func withAPlanTheErrorSaysTheTriggerFailsWhateverTheMetadata() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("brokensignupplan")
        _ = try Connection(project).execute(unsafeScript: Self.migration)
        let url = try TestCluster.cluster.url(database: project.parameters["dbname"] ?? "", user: "postgres")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("broken-signup-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            personas:
              visitor: { role: anon }
              alice: { role: authenticated, email: alice@example.com, metadata: { name: Alice } }
            relations:
              rate_limits:
                sample: { user_id: "auth.uid()" }
                access: { anon: none, authenticated: none }
            """.write(to: folder.appendingPathComponent("access-plan.yml"), atomically: true, encoding: .utf8)
        let before = try DatabaseDigest.ofDatabase(try Connection(admin))
        let run = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(run.status != 0, "\(run.all)")
        #expect(run.standardError.contains("creating the user of persona 'alice' (alice@example.com) failed in trigger "
            + "initialize_user_rate_limits_trigger"), "\(run.all)")
        #expect(run.standardError.contains("the trigger fails whatever the user's metadata (SQLSTATE 42703)"), "\(run.all)")
        #expect(!run.standardError.contains("plan draft with --user-metadata"), "\(run.all)")
        #expect(try DatabaseDigest.ofDatabase(try Connection(admin)) == before)
    }
}
