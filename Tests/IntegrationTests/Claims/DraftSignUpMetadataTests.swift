import Foundation
import Testing
import WardenKit
import TestSupport

/// `plan draft` on a database whose sign-up trigger needs user metadata (a `handle`,
/// unique, as a public package registry's does): without metadata the personas get the
/// metadata the trigger reads, each its own (`SignUpMetadataGuess`), the plan says it and
/// `pgwarden test` accepts it; where that is refused too (a handle that must start with
/// `@`), the error names the trigger and what it raised, and nothing is written; with
/// `--user-metadata` the draft is written and `pgwarden test` accepts it.
@Suite struct DraftSignUpMetadataTests {
    static let schema = """
        create table public.profiles (
          id uuid primary key references auth.users (id) on delete cascade,
          handle text not null unique
        );
        alter table public.profiles enable row level security;
        create policy "Profiles are public." on public.profiles for select using (true);
        create function public.handle_new_user() returns trigger
        language plpgsql security definer set search_path = '' as $$
        begin
          if new.raw_user_meta_data ->> 'handle' is null then
            raise exception 'a handle is required to sign up';
          end if;
          insert into public.profiles (id, handle) values (new.id, new.raw_user_meta_data ->> 'handle');
          return new;
        end;
        $$;
        revoke execute on function public.handle_new_user() from anon, authenticated, public;
        create trigger on_auth_user_created after insert on auth.users
          for each row execute function public.handle_new_user();
        """

    private func database(handlesStartWithAt: Bool = false) throws -> (url: String, folder: URL) {
        let (_, project) = try TestCluster.newTwinDatabase("signup")
        _ = try Connection(project).execute(unsafeScript: handlesStartWithAt
            ? Self.schema.replacingOccurrences(of: "if new.raw_user_meta_data ->> 'handle' is null then",
                                               with: "if coalesce(new.raw_user_meta_data ->> 'handle', '') !~ '^@' then")
            : Self.schema)
        let folder = TestFolder.url("signup")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try TestCluster.cluster.url(database: project.parameters["dbname"] ?? "", user: "postgres"), folder)
    }

    @Test func withoutMetadataThePersonasGetWhatTheTriggerReads() throws {
        let (url, folder) = try database()
        let file = folder.appendingPathComponent("access-plan.yml").path
        let run = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", file])
        #expect(run.status == 0, "\(run.all)")
        #expect(run.standardOutput.contains(#"NOTE ava, ben signed up with user_metadata ava={"handle": "ava"}, ben={"handle": "ben"}: "#
            + "without it the sign-up trigger on_auth_user_created (public.handle_new_user()) on auth.users refused them "
            + "(P0001 a handle is required to sign up)"), "\(run.all)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(#"ava: { role: authenticated, email: ava.draft@example.com, metadata: {"handle": "ava"} }"#), "\(text)")
        let tested = try PgwardenCLI.run(["test", "--database-url", url, "--plan", file])
        #expect(tested.status == 0, "\(tested.all)")
    }

    @Test func withoutMetadataTheTriggerStillRefusesTheErrorNamesItAndNothingIsWritten() throws {
        let (url, folder) = try database(handlesStartWithAt: true)
        let file = folder.appendingPathComponent("access-plan.yml").path
        let run = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", file])
        #expect(run.status != 0, "\(run.all)")
        #expect(run.standardError.contains("trigger on_auth_user_created (public.handle_new_user())"), "\(run.all)")
        #expect(run.standardError.contains("a handle is required to sign up"), "\(run.all)")
        #expect(run.standardError.contains("--user-metadata"), "\(run.all)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func withMetadataTheDraftIsWrittenAndTestAcceptsIt() throws {
        let (url, folder) = try database()
        let file = folder.appendingPathComponent("access-plan.yml").path
        let run = try PgwardenCLI.run([
            "plan", "draft", "--database-url", url, "--output", file,
            "--user-metadata", #"{"handle": "someone"}"#, "--user-metadata", #"ben={"handle": "ben"}"#,
        ])
        #expect(run.status == 0, "\(run.all)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains(#"ava: { role: authenticated, email: ava.draft@example.com, metadata: {"handle":"someone"} }"#), "\(text)")
        #expect(text.contains(#"ben: { role: authenticated, email: ben.draft@example.com, metadata: {"handle":"ben"} }"#), "\(text)")
        #expect(text.contains("# expired: true"))
        let tested = try PgwardenCLI.run(["test", "--database-url", url, "--plan", file])
        #expect(tested.status == 0, "\(tested.all)")
    }

    @Test func metadataThatIsNotAnObjectIsRefused() throws {
        let (url, folder) = try database()
        let file = folder.appendingPathComponent("access-plan.yml").path
        for bad in ["[1]", "zed={}", "ava=nope"] {
            let run = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--output", file, "--user-metadata", bad])
            #expect(run.status != 0 && run.standardError.contains("--user-metadata"), "\(bad): \(run.all)")
        }
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
