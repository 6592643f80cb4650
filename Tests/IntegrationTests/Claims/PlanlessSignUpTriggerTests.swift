import Foundation
import Testing
import WardenKit
import TestSupport

/// A project whose sign-up trigger needs user metadata (it copies
/// `raw_user_meta_data ->> 'name'` into a NOT NULL column that must be capitalised, so
/// the metadata pgwarden makes up, `{"name": "ava"}`, does not get the personas past it:
/// `SignUpMetadataGuess`, tried below without the check). Without a plan, `dev` and
/// `test` leave the refused signed-in personas out, observe anon and service_role, name
/// the left-out personas once with the server's error and a hint, still run the pgTAP
/// tests, and exit 1 (an incomplete observation is not a pass); `--user-metadata` gives
/// the personas what the trigger needs. `lint` and `test --strict` act as the plan's
/// personas, with their `metadata:`. A bad `--user-metadata` is a usage error before
/// anything connects or starts.
@Suite struct PlanlessSignUpTriggerTests {
    static let migration = """
        create table public.profiles (
          id uuid primary key references auth.users on delete cascade,
          name text not null check (name ~ '^[A-Z]')
        );
        alter table public.profiles enable row level security;
        create policy "own" on public.profiles for select to authenticated using (id = auth.uid());
        create function public.handle_new_user() returns trigger
        language plpgsql security definer set search_path = '' as $$
        begin
          insert into public.profiles (id, name) values (new.id, new.raw_user_meta_data ->> 'name');
          return new;
        end $$;
        create trigger on_auth_user_created after insert on auth.users
          for each row execute function public.handle_new_user();
        """

    static let pgTAP = """
        begin;
        select plan(1);
        select has_table('public', 'profiles', 'profiles exists');
        select * from finish();
        rollback;
        """

    /// Plan personas named otherwise than the drafted ones, so a run that acts as them says so.
    static let plan = """
        personas:
          visitor: { role: anon }
          alice: { role: authenticated, email: alice@example.com, metadata: { name: Alice } }
          bob: { role: authenticated, email: bob@example.com, metadata: { name: Bob } }
          admin: { role: service_role }
        relations:
          profiles:
            owner: "id = auth.uid()"
            sample: { id: "auth.uid()", name: "'x'" }
            access: { anon: none, authenticated: { select: own }, service_role: all }
        functions:
          "public.handle_new_user()": { anon: execute, authenticated: execute, service_role: execute }
        """

    /// A project folder: migrations/, tests/ (one pgTAP file), no plan.
    private func project() throws -> URL {
        let folder = TestFolder.url("signup-trigger")
        let migrations = folder.appendingPathComponent("migrations"), tests = folder.appendingPathComponent("tests")
        for directory in [migrations, tests] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        try Self.migration.write(to: migrations.appendingPathComponent("20240101000000_init.sql"), atomically: true, encoding: .utf8)
        try Self.pgTAP.write(to: tests.appendingPathComponent("profiles.sql"), atomically: true, encoding: .utf8)
        return folder
    }

    /// A twin database with the migration applied, and its URL as postgres.
    private func database() throws -> (admin: Connection, url: String) {
        let (admin, project) = try TestCluster.newTwinDatabase("signuptrigger")
        _ = try Connection(project).execute(unsafeScript: Self.migration)
        return (try Connection(admin), try TestCluster.cluster.url(database: project.parameters["dbname"] ?? "", user: "postgres"))
    }

    private func occurrences(of text: String, in output: String) -> Int { output.components(separatedBy: text).count - 1 }

    /// What a plan-less run says when ava and ben were refused.
    private func expectLeftOut(_ output: String, _ all: String) {
        #expect(output.contains("observed as anon and service_role (ava, ben left out: see LEFT OUT below)"), "\(all)")
        #expect(occurrences(of: "LEFT OUT ava, ben", in: output) == 1, "\(all)")
        #expect(output.contains("the sign-up trigger on_auth_user_created (public.handle_new_user()) on auth.users refused "
            + "the auth.users row of ava (ava.draft@example.com), ben (ben.draft@example.com): 23502 null value in column \"name\""), "\(all)")
        #expect(output.contains("raw_user_meta_data was {}"), "\(all)")
        // The hint names the key the trigger's function reads, and gives each persona its
        // own value (one for both, written into a unique column, refused the second).
        #expect(output.contains(#"hint: give the personas the user metadata the trigger needs, each its own: "#
            + #"--user-metadata 'ava={"name": "ava"}' --user-metadata 'ben={"name": "ben"}'"#), "\(all)")
        #expect(output.contains("pgwarden plan draft --user-metadata"), "\(all)")
        #expect(!all.contains("creating the user of persona"), "\(all)")
    }

    @Test func devWithoutAPlanLeavesTheRefusedPersonasOutRunsTheTestsAndExits1() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
        #expect(run.status == 1, "\(run.all)")
        expectLeftOut(run.standardOutput, run.all)
        #expect(run.standardOutput.contains("✓ tests/profiles.sql"), "\(run.all)")
        #expect(run.standardOutput.contains("pgTAP: 1 file, 1 assertion, 1 passed, 0 failed"), "\(run.all)")
        #expect(run.standardOutput.contains("dev: done in"), "\(run.all)")
    }

    @Test func devWithUserMetadataObservesEveryPersona() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try PgwardenCLI.run(
            ["dev", "--user-metadata", #"{"name": "Ava"}"#], environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
        #expect(run.status == 0, "\(run.all)")
        #expect(run.standardOutput.contains("observed as anon, two signed-in users (ava, ben) and service_role"), "\(run.all)")
        #expect(!run.all.contains("LEFT OUT"), "\(run.all)")
        #expect(run.standardOutput.contains("pgTAP: 1 file, 1 assertion, 1 passed, 0 failed"), "\(run.all)")
    }

    /// The same metadata for both personas, which the trigger writes into a unique column:
    /// each was accepted on its own, then ben's sign-up failed in the run (exit 65, nothing
    /// observed). Now ben is left out like any refused persona, with a hint to give each
    /// persona its own value.
    @Test func sharedMetadataInAUniqueColumnLeavesTheSecondPersonaOut() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "create unique index profiles_name_key on public.profiles (name);\n".write(
            to: folder.appendingPathComponent("migrations/20240101000001_unique.sql"), atomically: true, encoding: .utf8)
        let run = try PgwardenCLI.run(
            ["dev", "--user-metadata", #"{"name": "Same"}"#], environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
        #expect(run.status == 1, "\(run.all)")
        #expect(run.standardOutput.contains("observed as anon, signed-in user (ava) and service_role (ben left out: see LEFT OUT below)"),
                "\(run.all)")
        #expect(run.standardOutput.contains("23505 duplicate key value violates unique constraint \"profiles_name_key\""), "\(run.all)")
        #expect(run.standardOutput.contains("hint: the personas were given the same metadata, and the trigger writes it into a unique "
            + #"column: give each its own, --user-metadata 'ava={"name": "ava"}' --user-metadata 'ben={"name": "ben"}'"#), "\(run.all)")
        #expect(!run.all.contains("creating the user of persona"), "\(run.all)")
        let own = try PgwardenCLI.run(
            ["dev", "--user-metadata", #"ava={"name": "Ava"}"#, "--user-metadata", #"ben={"name": "Ben"}"#],
            environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
        #expect(own.status == 0, "\(own.all)")
    }

    @Test func testWithoutAPlanLeavesThemOutAndWithMetadataPasses() throws {
        let (admin, url) = try database()
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try DatabaseDigest.ofDatabase(admin)
        let run = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(run.status == 1, "\(run.all)")
        expectLeftOut(run.standardOutput, run.all)
        #expect(run.standardOutput.contains("pgTAP: 1 file, 1 assertion, 1 passed, 0 failed"), "\(run.all)")
        // A machine format stays parseable; the left-out personas are named on standard error.
        let json = try PgwardenCLI.run(["test", "--database-url", url, "--format", "json"], directory: folder.path)
        #expect(json.status == 1, "\(json.all)")
        #expect(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) is [String: Any], "\(json.all)")
        expectLeftOut(json.standardError, json.all)
        let given = try PgwardenCLI.run(
            ["test", "--database-url", url, "--user-metadata", #"{"name": "Ava"}"#, "--user-metadata", #"ben={"name": "Ben"}"#],
            directory: folder.path)
        #expect(given.status == 0, "\(given.all)")
        #expect(given.standardOutput.contains("observed as anon, two signed-in users (ava, ben) and service_role"), "\(given.all)")
        #expect(!given.all.contains("LEFT OUT"), "\(given.all)")
        #expect(try DatabaseDigest.ofDatabase(admin) == before)
    }

    @Test func lintAndStrictTestActAsThePlansPersonas() throws {
        let (admin, url) = try database()
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try DatabaseDigest.ofDatabase(admin)
        let planFile = folder.appendingPathComponent("access-plan.yml").path
        // Without a plan, lint leaves the refused drafted users out and does not pass.
        let planless = try PgwardenCLI.run(["lint", "--database-url", url], directory: folder.path)
        #expect(planless.status == 1, "\(planless.all)")
        #expect(occurrences(of: "LEFT OUT ava, ben", in: planless.standardOutput) == 1, "\(planless.all)")
        #expect(planless.standardOutput.contains("2 personas left out (not probed)"), "\(planless.all)")
        #expect(!planless.standardOutput.contains("HARMLESS authenticated_security_definer_function_executable"), "\(planless.all)")
        let given = try PgwardenCLI.run(["lint", "--database-url", url, "--user-metadata", #"{"name": "Ava"}"#], directory: folder.path)
        #expect(given.status == 0, "\(given.all)")
        #expect(given.standardOutput.contains("probe: ava called public.handle_new_user()"), "\(given.all)")
        // With a plan: its personas (alice, with her metadata), not drafted ones.
        try Self.plan.write(toFile: planFile, atomically: true, encoding: .utf8)
        let lint = try PgwardenCLI.run(["lint", "--database-url", url], directory: folder.path)
        #expect(lint.status == 0, "\(lint.all)")
        #expect(lint.standardOutput.contains("probe: alice called public.handle_new_user()"), "\(lint.all)")
        #expect(!lint.all.contains("draft@"), "\(lint.all)")
        let strict = try PgwardenCLI.run(["test", "--database-url", url, "--strict"], directory: folder.path)
        #expect(strict.status == 0, "\(strict.all)")
        #expect(strict.standardOutput.contains("probe: alice called public.handle_new_user()"), "\(strict.all)")
        #expect(strict.standardOutput.contains("pgTAP: 1 file, 1 assertion, 1 passed, 0 failed"), "\(strict.all)")
        #expect(try DatabaseDigest.ofDatabase(admin) == before)
    }

    /// With every signed-in persona left out, an owned table's update and delete probes
    /// of the others aim at any row (each is some user's: here a third, seeded user's),
    /// not at the first signed-in persona's own row, which does not exist: service_role's
    /// writes are observed, not "could not be stated as a scope".
    @Test func withEverySignedInPersonaLeftOutServiceRoleStillWritesAUsersRow() throws {
        let (admin, url) = try database()
        let cluster = try TestCluster.cluster
        let owner = try Connection(cluster.settings(
            database: admin.settings.parameters["dbname"] ?? "", user: cluster.projectUser))
        _ = try owner.execute(unsafeScript: """
            create table public.posts (
              id bigint generated always as identity primary key,
              user_id uuid not null references auth.users default auth.uid(), body text not null);
            alter table public.posts enable row level security;
            create policy "read" on public.posts for select using (true);
            create policy "own" on public.posts for update to authenticated using (auth.uid() = user_id);
            """)
        _ = try admin.execute(unsafeScript: """
            insert into auth.users (id, email, raw_user_meta_data)
              values ('00000000-0000-0000-0000-00000000000a', 'seeded@example.com', '{"name": "Seeded"}');
            insert into public.posts (user_id, body) values ('00000000-0000-0000-0000-00000000000a', 'hello');
            """)
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try DatabaseDigest.ofDatabase(admin)
        let run = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(run.status == 1, "\(run.all)")
        expectLeftOut(run.standardOutput, run.all)
        let posts = run.standardOutput.split(separator: "\n").first { $0.hasPrefix("public.posts ") }.map(String.init) ?? ""
        #expect(posts.trimmingCharacters(in: .whitespaces).hasSuffix("SIUD ✓"), "\(run.all)")
        #expect(!run.standardOutput.contains("could not be stated"), "\(run.all)")
        #expect(try DatabaseDigest.ofDatabase(admin) == before)
    }

    @Test func badUserMetadataIsRefusedBeforeAnythingConnects() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Nothing listens there: a run that connected would fail with 69, not 64.
        let nowhere = "postgresql://postgres@/postgres?host=\(folder.path)&port=1"
        for bad in ["[1]", "{nope", "\"Ava\"", "zed={}", "ava=nope"] {
            for command in [["test", "--database-url", nowhere], ["lint", "--database-url", nowhere], ["dev"]] {
                let run = try PgwardenCLI.run(
                    command + ["--user-metadata", bad], environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
                #expect(run.status == 64, "\(command[0]) \(bad): \(run.all)")
                #expect(run.standardError.contains("--user-metadata: '"), "\(command[0]) \(bad): \(run.all)")
                #expect(run.standardError.contains("is not a JSON object") || run.standardError.contains("is not a drafted signed-in persona"),
                        "\(command[0]) \(bad): \(run.all)")
                #expect(!run.standardOutput.contains("server:"), "\(command[0]) \(bad): \(run.all)")
            }
        }
    }

    /// A trigger that checks its keys in a loop (`foreach k in array ['username',
    /// 'first_login']`), wants a boolean and a uuid: the hint named only the keys read
    /// with `->`, each as "value", so following it failed again ("first_login must be of
    /// boolean type"). It now names the key the error asks for and values of the types
    /// the body tests, and the run it suggests signs the personas up.
    @Test func theMetadataHintNamesTheKeyTheErrorAsksForWithValuesOfTheTypesTheTriggerTests() throws {
        let (_, project) = try TestCluster.newTwinDatabase("signupkeys")
        _ = try Connection(project).execute(unsafeScript: """
            create table public.notes (id uuid primary key default gen_random_uuid(),
                                       owner_id uuid not null default auth.uid() references auth.users (id));
            alter table public.notes enable row level security;
            create policy own on public.notes for all to authenticated using (owner_id = auth.uid()) with check (owner_id = auth.uid());
            create function public.check_meta() returns trigger language plpgsql security definer set search_path = '' as $$
            declare k text;
            begin
              foreach k in array array['username', 'first_login'] loop
                if not (new.raw_user_meta_data ? k) then raise exception 'user metadata is missing required key: %', k; end if;
              end loop;
              if jsonb_typeof(new.raw_user_meta_data -> 'first_login') <> 'boolean' then raise exception 'first_login must be a boolean'; end if;
              if new.raw_user_meta_data ? 'sub' and (new.raw_user_meta_data ->> 'sub')::uuid is null then raise exception 'bad sub'; end if;
              return new;
            end $$;
            create trigger check_meta before insert on auth.users for each row execute function public.check_meta();
            """)
        let test = try Self.planlessTest(project, folder: "signupkeys")
        defer { test.cleanUp() }
        // With no metadata given, the personas sign up with what the hint would say.
        let guessed = try test.run([])
        #expect(guessed.status == 0, "\(guessed.all)")
        let ava = #"ava={"first_login": true, "sub": "00000000-0000-4000-8000-000000000001", "username": "ava"}"#
        let ben = #"ben={"first_login": true, "sub": "00000000-0000-4000-8000-000000000002", "username": "ben"}"#
        #expect(guessed.standardOutput.contains("NOTE ava, ben signed up with user_metadata \(ava), \(ben): without it"), "\(guessed.all)")
        let followed = try test.run([ava, ben])
        #expect(followed.status == 0, "\(followed.all)")
        #expect(!followed.standardOutput.contains("LEFT OUT"), "\(followed.all)")
    }

    /// `jsonb_typeof(... -> 'verified') not in ('boolean', 'null')` raising "verified must
    /// be of boolean type" (a chat app, round thirty-eight): the hint gave the key as
    /// text, and once that failed, added a key "boolean" (a word of the message that is
    /// a literal of the body). It now gives `true` and no such key, and the run it
    /// suggests signs the personas up.
    @Test func theMetadataHintReadsATypeTestedWithNotIn() throws {
        let (_, project) = try TestCluster.newTwinDatabase("signupnotin")
        _ = try Connection(project).execute(unsafeScript: """
            create table public.members (id uuid primary key references auth.users (id), name text not null);
            alter table public.members enable row level security;
            create policy own on public.members for select to authenticated using (id = auth.uid());
            create function public.check_signup() returns trigger language plpgsql security definer set search_path = '' as $$
            begin
              if new.raw_user_meta_data ->> 'name' is null then raise exception 'missing required key: name'; end if;
              if jsonb_typeof(new.raw_user_meta_data -> 'verified') not in ('boolean', 'null') then
                raise exception 'verified must be of boolean type';
              end if;
              insert into public.members (id, name) values (new.id, new.raw_user_meta_data ->> 'name');
              return new;
            end $$;
            create trigger check_signup after insert on auth.users for each row execute function public.check_signup();
            """)
        let test = try Self.planlessTest(project, folder: "signupnotin")
        defer { test.cleanUp() }
        let guessed = try test.run([])
        #expect(guessed.status == 0, "\(guessed.all)")
        let ava = #"ava={"name": "ava", "verified": true}"#
        let ben = #"ben={"name": "ben", "verified": true}"#
        #expect(guessed.standardOutput.contains("NOTE ava, ben signed up with user_metadata \(ava), \(ben): without it"), "\(guessed.all)")
        // Given as text, as the old hint said: the hint after it names no key "boolean".
        let text = try test.run([#"ava={"name": "ava", "verified": "ava"}"#, #"ben={"name": "ben", "verified": "ben"}"#])
        #expect(text.status == 1, "\(text.all)")
        #expect(text.standardOutput.contains("verified must be of boolean type"), "\(text.all)")
        #expect(!text.standardOutput.contains(#""boolean":"#), "\(text.all)")
        let followed = try test.run([ava, ben])
        #expect(followed.status == 0, "\(followed.all)")
        #expect(!followed.standardOutput.contains("LEFT OUT"), "\(followed.all)")
    }

    /// A sign-up trigger that admits only invited e-mails and reads no metadata (a
    /// documents hub, round thirty-seven): the hint offered `--user-metadata`, which
    /// cannot help. It now says so, and says where the e-mails go: in a seed, which runs
    /// before the personas sign up (tried here: with it, both are observed).
    @Test func anInvitationOnlySignUpGetsAHintThatCanHelp() throws {
        let folder = TestFolder.url("invite-only")
        defer { try? FileManager.default.removeItem(at: folder) }
        let migrations = folder.appendingPathComponent("supabase/migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        try """
            create table public.invites (email text primary key);
            alter table public.invites enable row level security;
            create function public.only_invited() returns trigger language plpgsql security definer set search_path = '' as $$
            begin
              if not exists (select 1 from public.invites where email = new.email) then
                raise exception 'Email % is not invited', new.email;
              end if;
              return new;
            end $$;
            create trigger only_invited before insert on auth.users for each row execute function public.only_invited();
            """.write(to: migrations.appendingPathComponent("20250101000000_invites.sql"), atomically: true, encoding: .utf8)
        let refused = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
        #expect(refused.status == 1, "\(refused.all)")
        #expect(refused.standardOutput.contains("hint: the trigger reads no user metadata, so none gets the personas past it; "
            + "where it admits only e-mails another table lists (invitations, an allow-list), put theirs "
            + "(ava.draft@example.com, ben.draft@example.com) there in a seed file"), "\(refused.all)")
        #expect(!refused.standardOutput.contains("--user-metadata"), "\(refused.all)")
        try "insert into public.invites values ('ava.draft@example.com'), ('ben.draft@example.com');\n".write(
            to: folder.appendingPathComponent("supabase/seed.sql"), atomically: true, encoding: .utf8)
        let invited = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: folder.path)
        #expect(invited.status == 0, "\(invited.all)")
        #expect(!invited.standardOutput.contains("LEFT OUT"), "\(invited.all)")
    }

    /// `pgwarden test` with no plan on `project`'s database, from an empty folder, with
    /// each of the given `--user-metadata` values; `cleanUp` removes the folder.
    static func planlessTest(_ project: ConnectionSettings, folder name: String) throws
        -> (run: ([String]) throws -> PgwardenCLI.Output, cleanUp: () -> Void)
    {
        let url = try TestCluster.cluster.url(database: project.parameters["dbname"] ?? "", user: "postgres")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return ({ metadata in
            try PgwardenCLI.run(["test", "--database-url", url] + metadata.flatMap { ["--user-metadata", $0] }, directory: folder.path)
        }, { try? FileManager.default.removeItem(at: folder) })
    }
}
