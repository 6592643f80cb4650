import Foundation
import Testing
import WardenKit
import TestSupport

/// Storage policies scoped to a bucket (found on a real project: bucket `avatars`, read
/// and upload for anon and authenticated). A run without `storage` in its schemas says
/// it did not observe them; the draft with `storage` puts its rows and insert probes in
/// that bucket, in the persona's folder, so anon's read and upload show as DANGER, and
/// the draft passes its own test.
@Suite struct StorageBucketDraftTests {
    static func database() throws -> String {
        let connection = try Connection(try TestCluster.newTwinDatabase("bucket").project)
        try connection.execute(unsafeScript: """
            insert into storage.buckets (id, name, public) values ('avatars', 'avatars', false), ('zz-other', 'zz-other', false);
            create policy "anyone reads avatars" on storage.objects for select to anon, authenticated
              using (bucket_id = 'avatars');
            create policy "anyone uploads avatars" on storage.objects for insert to anon, authenticated
              with check (bucket_id = 'avatars');
            create policy "own folder" on storage.objects for update to authenticated
              using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid()::text));
            """)
        return try TestCluster.cluster.url(database: connection.settings.parameters["dbname"] ?? "", user: "postgres")
    }

    private func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bucket-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aRunWithoutStorageSaysItDidNotObserveItsPolicies() throws {
        let url = try Self.database()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(result.status == 0, "\(result.all)")
        let note = "NOTE storage.objects has 3 policies (bucket avatars) this run did not observe: "
            + "pgwarden plan draft --schema public --schema storage --output access-plan.yml, then pgwarden test"
        #expect(result.standardOutput.components(separatedBy: note).count == 2, "\(result.all)")
        let drafted = try PgwardenCLI.run(["plan", "draft", "--database-url", url, "--schema", "public", "--schema", "storage"])
        #expect(!drafted.all.contains("NOTE storage.objects has"), "\(drafted.all)")
    }

    @Test func theDraftProbesTheBucketItsPoliciesNameAndPasses() throws {
        let url = try Self.database()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appendingPathComponent("access-plan.yml").path
        let drafted = try PgwardenCLI.run([
            "plan", "draft", "--database-url", url, "--schema", "public", "--schema", "storage", "--output", plan,
        ])
        #expect(drafted.status == 0, "\(drafted.all)")
        #expect(drafted.standardOutput.contains("pgwarden test passes with it"), "\(drafted.all)")
        let yaml = try String(contentsOfFile: plan, encoding: .utf8)
        // The per-user folder policy makes the owner rule; the sample is in its bucket and folder.
        #expect(yaml.contains("""
                sample:
                  bucket_id: "'avatars'"
                  name: "auth.uid()::text || '/' || auth.uid()::text || '.txt'"
                access:
            """), "\(yaml)")
        #expect(yaml.contains("anon: { select: all, insert: all }  # DANGER: anon (no sign-in) may select, insert (the bucket's files)"),
                "\(yaml)")
        #expect(yaml.contains("ava: { select: all, insert: all, update: own }"), "\(yaml)")
        let tested = try PgwardenCLI.run(["test", "--database-url", url, "--plan", plan])
        #expect(tested.status == 0, "\(tested.all)")
    }

    /// A public bucket anyone reads, and a private one with per-user folders whose
    /// policies make the owner rule: the rows and samples went in the public bucket
    /// (anon's policy's bucket first), so no row was anyone's own: the personas' own
    /// writes were never seen, service_role was drafted without update and delete, and
    /// the draft failed its own run. Now they go in the bucket the owner rule names.
    @Test func theRowsGoInTheBucketTheOwnerRuleNames() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("ownerbucket").project)
        try connection.execute(unsafeScript: """
            insert into storage.buckets (id, name, public) values ('docs', 'docs', true), ('avatars', 'avatars', false);
            create policy "docs read" on storage.objects for select to anon, authenticated using (bucket_id = 'docs');
            create policy "own avatars read" on storage.objects for select to authenticated
              using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
            create policy "own avatars write" on storage.objects for insert to authenticated
              with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
            create policy "own avatars update" on storage.objects for update to authenticated
              using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
            create policy "own avatars delete" on storage.objects for delete to authenticated
              using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);
            """)
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.sample.first { $0.column == "bucket_id" }?.expression == "'avatars'", "\(draft.yaml)")
        #expect(objects.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(objects.access["service"] == .everything, "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// A bucket of images its policies keep to some extensions (`storage.extension(name)
    /// = any (array['jpg', 'png'])`, `= 'pdf'`): the draft's file was always `.txt`, so
    /// every upload was refused and the cell said `none` where users upload their own
    /// images (round forty's note). The file takes the first extension the bucket's
    /// policies name.
    @Test func theFileTakesAnExtensionTheBucketsPoliciesAllow() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("bucketext").project)
        try connection.execute(unsafeScript: """
            insert into storage.buckets (id, name, public) values ('photos', 'photos', false);
            create policy "own photos read" on storage.objects for select to authenticated
              using (bucket_id = 'photos' and (storage.foldername(name))[1] = (select auth.uid())::text);
            create policy "own photos upload" on storage.objects for insert to authenticated
              with check (bucket_id = 'photos' and (storage.foldername(name))[1] = (select auth.uid())::text
                and lower(storage.extension(name)) = any (array['jpg', 'png']));
            """)
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.sample.first { $0.column == "name" }?.expression == "auth.uid()::text || '/' || auth.uid()::text || '.jpg'",
                "\(draft.yaml)")
        #expect(objects.access["ava"]?.insert == .own, "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Per-user file names (`replace(storage.filename(name), ...)::uuid = auth.uid()`):
    /// the draft's file, named `pgwarden-draft.txt`, made that cast fail for the whole
    /// run (22P02), and the draft was lost with a bare server message. Now the file is
    /// named for its persona. A rule that still cannot hold for the draft's rows (a folder
    /// cast to a number) is left out of the draft with a NOTE, and a plan with such a
    /// rule fails naming its relation.
    @Test func aFileNameCastHoldsAndARuleThatCannotIsLeftOutWithANote() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("filecast").project)
        try connection.execute(unsafeScript: """
            insert into storage.buckets (id, name) values ('avatars', 'avatars');
            create policy "own avatar" on storage.objects for all to authenticated
              using (bucket_id = 'avatars' and replace(storage.filename(name), '.' || storage.extension(name), '')::uuid = auth.uid())
              with check (bucket_id = 'avatars' and replace(storage.filename(name), '.' || storage.extension(name), '')::uuid = auth.uid());
            """)
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")

        try connection.execute(unsafeScript: """
            create table public.orgs (id int primary key, owner_id uuid references auth.users);
            alter table public.orgs enable row level security;
            drop policy "own avatar" on storage.objects;
            create policy "org logo" on storage.objects for all to authenticated
              using (bucket_id = 'avatars' and exists (select 1 from public.orgs o
                     where o.id = split_part(name, '/', 1)::int and o.owner_id = auth.uid()));
            """)
        let kept = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        let logos = try #require(kept.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(logos.owner == nil, "\(kept.yaml)")
        #expect(kept.yaml.contains("# NOTE: the owner rule its policies give, "), "\(kept.yaml)")
        #expect(kept.yaml.contains("fails on its rows (invalid input syntax for type integer"), "\(kept.yaml)")

        // Such a rule in a plan of one's own: the run names the relation, where it gave the
        // server's bare message.
        let own = try AccessPlanParser(file: "plan.yml").parse("""
            schemas: [storage]
            personas:
              anon: { role: anon }
              ava: { role: authenticated, email: ava.cast@example.com }
            setup:
              - insert into storage.objects (bucket_id, name) values ('avatars', 'not-a-number/y.txt')
            relations:
              objects:
                owner: "split_part(name, '/', 1)::int > 0"
                sample: { bucket_id: "'avatars'", name: "'1/z.txt'" }
                access: { anon: none, ava: none }
            """)
        let error = try #require(throws: RelationTruthError.self) { try AccessPlanRunner(connection: connection, plan: own).run() }
        #expect(error.relation == "storage.objects")
        #expect(error.description.contains("storage.objects: its owner rule or sample cannot be evaluated on its rows"), "\(error)")
        #expect(try connection.query("select count(*)::text from storage.objects").scalar == "0")
    }

    /// Policies naming a bucket the database lacks (made in the dashboard: no migration
    /// or config.toml creates `message-files`), one of them letting every signed-in user
    /// read every file: the draft's rows went into a bucket of its own, no policy let
    /// anything through there, and the read of every user's attachments was drafted
    /// `none`. The draft's setup now makes the bucket first and probes its files.
    @Test func aBucketThePoliciesNameButNoMigrationMakesIsMadeInTheSetup() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("missingbucket").project)
        try connection.execute(unsafeScript: """
            create policy "read attachments" on storage.objects for select to authenticated
              using (bucket_id = 'message-files');
            create policy "upload attachments" on storage.objects for insert to authenticated
              with check (bucket_id = any (array['message-files', 'it''s-files']) and (storage.foldername(name))[1] = auth.uid()::text);
            create policy "delete own" on storage.objects for delete to authenticated using (owner = auth.uid());
            """)
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        #expect(draft.plan.setup.first?.contains("insert into storage.buckets (id, name) values ('message-files', 'message-files'), ('it''s-files', 'it''s-files')") == true,
                "\(draft.plan.setup)")
        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.access["ava"]?.select == .all, "\(draft.yaml)")
        #expect(draft.dangerCells.contains { $0.contains("storage.objects") }, "\(draft.dangerCells)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
        // Nothing of the draft's run is left: the bucket exists only in its rolled-back setup.
        #expect(try connection.query("select count(*) from storage.buckets").rows.first?.first == "0")
    }

    /// Per-user avatar folders beside `for all using (bucket_id = 'git-state' and
    /// auth.role() = 'authenticated')`: every cell came from the avatars bucket, `own`,
    /// and "0 cells marked DANGER" while any user read and overwrote every file of
    /// git-state (a git-collaboration app). Each other bucket the policies name gets
    /// checks of ben's file there, made by the check itself; the matrix stays the avatars'.
    @Test func theOtherBucketsThePoliciesNameAreChecked() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("otherbuckets").project)
        try connection.execute(unsafeScript: """
            insert into storage.buckets (id, name, public) values ('avatars', 'avatars', false), ('git-state', 'git-state', false),
              ('logos', 'logos', true);
            create policy "own avatars" on storage.objects for all to authenticated
              using (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text)
              with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text);
            create policy "git state" on storage.objects for all to authenticated
              using (bucket_id = 'git-state' and auth.role() = 'authenticated')
              with check (bucket_id = 'git-state' and auth.role() = 'authenticated');
            create policy "own logos" on storage.objects for update to authenticated
              using (bucket_id = 'logos' and (storage.foldername(name))[1] = auth.uid()::text);
            create policy "logos are public" on storage.objects for select using (bucket_id = 'logos');
            create policy "owners delete their logos" on storage.objects for delete to authenticated
              using (bucket_id = 'logos');
            """)
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        for name in ["ava reads a file of ben's in bucket git-state", "ava changes a file of ben's in bucket git-state"] {
            let check = try #require(draft.plan.checks.first { $0.name == name }, "\(draft.plan.checks.map(\.name))")
            #expect(check.expectation.rowCount == 1, "\(draft.yaml)")
        }
        #expect(draft.dangerCells.contains { $0.contains("may change other users' files in bucket git-state") }, "\(draft.dangerCells)")
        // Another user's logo is refused (0 rows), and a public bucket's files are anyone's to read: no read check.
        let logo = try #require(draft.plan.checks.first { $0.name == "ava changes a file of ben's in bucket logos" },
                                "\(draft.plan.checks.map(\.name))")
        #expect(logo.expectation.rowCount == 0, "\(draft.yaml)")
        #expect(!draft.plan.checks.contains { $0.name == "ava reads a file of ben's in bucket logos" })
        // A delete policy naming only the bucket (meant as "owners delete their logos")
        // lets any user delete any logo, where the update is refused: a check of its own.
        try DraftRealProjectShapesTests.expectWentThrough(
            draft, check: "ava deletes a file of ben's in bucket logos",
            danger: "storage.objects · ava: a signed-in user may delete other users' files in bucket logos")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }

    /// Personal logos (first folder the user's id) beside team buckets matched by a
    /// pattern (`bucket_id like 'team-%'`), the team policy named so that it sorts first:
    /// its rule became the owner rule, held for no file, and ava's own logo counted as
    /// another user's ("may update other users' rows", a payslips app). Renamed, the
    /// DANGER went away. A rule naming its bucket comes first.
    @Test func theOwnerRuleIsOneThatNamesItsBucket() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("bucketrule").project)
        try connection.execute(unsafeScript: """
            create table public.team_members (user_id uuid not null references auth.users (id), team_id uuid not null);
            insert into storage.buckets (id, name, public) values ('logos', 'logos', true);
            create policy "logos read" on storage.objects for select using (bucket_id = 'logos');
            create policy "logos update" on storage.objects for update
              using (bucket_id = 'logos' and auth.uid()::text = (storage.foldername(name))[1]);
            create policy "a team update" on storage.objects for update
              using (bucket_id like 'team-%' and exists (select 1 from public.team_members m
                     where m.user_id = auth.uid() and m.team_id = replace(bucket_id, 'team-', '')::uuid));
            """)
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.owner?.contains("'logos'") == true, "\(draft.yaml)")
        #expect(objects.access["ava"]?.update == .own, "\(draft.yaml)")
        #expect(objects.access["ben"] == objects.access["ava"], "\(draft.yaml)")
        // (Everyone reading the logos is what "logos read" says.)
        #expect(!draft.dangerCells.contains { $0.hasPrefix("storage.objects") && $0.contains("update") }, "\(draft.dangerCells)")
    }

    /// Avatars users may upload and delete but not list (public URLs serve them), beside
    /// a private bucket whose own-folder policy is `for all`: the avatars rule sorted
    /// first, so the plan said users may only insert files, and users reading their own
    /// documents was stated nowhere (a wardrobe app's private buckets). A read policy's
    /// rule comes first.
    @Test func theOwnerRuleIsARulePersonasReadTheirFilesBy() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("bucketreadrule").project)
        try connection.execute(unsafeScript: """
            insert into storage.buckets (id, name, public) values ('avatars', 'avatars', true), ('docs', 'docs', false);
            create policy "avatars insert" on storage.objects for insert to authenticated
              with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text);
            create policy "avatars delete" on storage.objects for delete to authenticated
              using (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text);
            create policy "docs own" on storage.objects for all to authenticated
              using (bucket_id = 'docs' and (storage.foldername(name))[1] = auth.uid()::text)
              with check (bucket_id = 'docs' and (storage.foldername(name))[1] = auth.uid()::text);
            """)
        let draft = try PlanDrafter(connection: connection, schemas: ["public", "storage"]).draft()
        let objects = try #require(draft.plan.relations.first { $0.qualifiedName == "storage.objects" })
        #expect(objects.owner?.contains("'docs'") == true, "\(draft.yaml)")
        #expect(objects.access["ava"] == Access(select: .own, insert: .own, update: .own, delete: .own), "\(draft.yaml)")
        #expect(draft.plan.checks.contains { $0.name == "ava deletes a file of ben's in bucket avatars" }, "\(draft.yaml)")
        #expect(draft.verified, "\(draft.report.failures.map { "\($0.name): \($0.observed)" })")
    }
}
