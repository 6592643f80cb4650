import Foundation
import Testing
import WardenKit
import TestSupport

/// A BEFORE INSERT trigger on auth.users that returns NULL unless the new user's
/// metadata names a known unit (a real project's way to turn sign-ups away): the
/// insert succeeds and makes no row. pgwarden said the personas were refused with the
/// foreign-key error of their identity row ("identities_user_id_fkey"), which names
/// neither the trigger nor the cause. Now a plan-less run names the BEFORE INSERT
/// trigger and says no row was made; a plan's persona without the metadata fails with
/// its line and the same cause; with the metadata, the run passes. Nothing stays.
@Suite struct SkippedSignUpTests {
    static let migration = """
        create table public.units (name text primary key);
        insert into public.units values ('alpha');
        create function public.check_unit() returns trigger
        language plpgsql security definer set search_path = '' as $$
        begin
          if exists (select 1 from public.units u where u.name = new.raw_user_meta_data ->> 'unit') then
            return new;
          end if;
          return null;
        end $$;
        create trigger on_before_auth_user_created before insert on auth.users
          for each row execute function public.check_unit();
        revoke execute on function public.check_unit() from public, anon, authenticated;
        """

    static let plan = """
        personas:
          visitor: { role: anon }
          alice: { role: authenticated, email: alice@example.com }
          admin: { role: service_role }
        relations:
          units:
            sample: { name: "'beta'" }
            access: { anon: all, authenticated: all, service_role: all }
        functions:
          "public.check_unit()": { anon: deny, authenticated: deny, service_role: execute }
        """

    private func database() throws -> (admin: Connection, url: String) {
        let (admin, project) = try TestCluster.newTwinDatabase("skippedsignup")
        _ = try Connection(project).execute(unsafeScript: Self.migration)
        return (try Connection(admin), try TestCluster.cluster.url(database: project.parameters["dbname"] ?? "", user: "postgres"))
    }

    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("skipped-signup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aPlanlessRunNamesTheTriggerThatSkippedTheRow() throws {
        let (admin, url) = try database()
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try DatabaseDigest.ofDatabase(admin)
        let run = try PgwardenCLI.run(["test", "--database-url", url], directory: folder.path)
        #expect(run.status == 1, "\(run.all)")
        #expect(run.standardOutput.contains("LEFT OUT ava, ben"), "\(run.all)")
        #expect(run.standardOutput.contains(
            "the sign-up trigger on_before_auth_user_created (public.check_unit()) on auth.users refused the auth.users row of "
            + "ava (ava.draft@example.com), ben (ben.draft@example.com): no auth.users row was made: a BEFORE INSERT trigger "
            + "returned NULL, which skips the row without an error; raw_user_meta_data was {}"), "\(run.all)")
        #expect(!run.all.contains("identities_user_id_fkey"), "\(run.all)")
        let given = try PgwardenCLI.run(["test", "--database-url", url, "--user-metadata", #"{"unit": "alpha"}"#], directory: folder.path)
        #expect(given.status == 0, "\(given.all)")
        #expect(!given.all.contains("LEFT OUT"), "\(given.all)")
        #expect(try DatabaseDigest.ofDatabase(admin) == before)
    }

    @Test func aPlanPersonaWithoutTheMetadataFailsWithItsLineAndTheTrigger() throws {
        let (admin, url) = try database()
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let planFile = folder.appendingPathComponent("access-plan.yml")
        try Self.plan.write(to: planFile, atomically: true, encoding: .utf8)
        let before = try DatabaseDigest.ofDatabase(admin)
        let run = try PgwardenCLI.run(["test", "--database-url", url, "--plan", planFile.path], directory: folder.path)
        #expect(run.status != 0, "\(run.all)")
        #expect(run.standardError.contains(
            "access-plan.yml:3: creating the user of persona 'alice' (alice@example.com) failed: no auth.users row was made: "
            + "trigger on_before_auth_user_created (public.check_unit()) returned NULL, which skips the row without an error; "
            + "its raw_user_meta_data was {}"), "\(run.all)")
        #expect(!run.all.contains("identities_user_id_fkey"), "\(run.all)")
        try Self.plan.replacingOccurrences(of: "email: alice@example.com }", with: "email: alice@example.com, metadata: { unit: alpha } }")
            .write(to: planFile, atomically: true, encoding: .utf8)
        let given = try PgwardenCLI.run(["test", "--database-url", url, "--plan", planFile.path], directory: folder.path)
        #expect(given.status == 0, "\(given.all)")
        #expect(try DatabaseDigest.ofDatabase(admin) == before)
    }
}
