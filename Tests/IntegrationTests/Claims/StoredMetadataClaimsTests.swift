import Foundation
import Testing
@testable import WardenKit
import WardenPostgres
import TestSupport

/// Supabase Auth makes a token's `app_metadata` and `user_metadata` from the user's row
/// at sign-in: what the project's sign-up trigger, or the plan's setup, wrote into
/// `raw_app_meta_data` is in it. The personas' tokens carried the plan's values only,
/// so a tenant id a sign-up trigger filed the user under never reached the policies
/// reading it, and every tenant's table was unprobed (an LMS, round thirty-four).
@Suite struct StoredMetadataClaimsTests {
    private static let schoolA = "11111111-1111-1111-1111-111111111111"

    private static func database(_ label: String) throws -> Connection {
        let project = try Connection(try TestCluster.newTwinDatabase(label).project)
        try project.execute(unsafeScript: """
            create function public.file_under_school() returns trigger language plpgsql security definer set search_path = '' as $$
            begin
              if new.raw_user_meta_data ? 'school_id' then
                update auth.users set raw_app_meta_data = raw_app_meta_data
                  || jsonb_build_object('school_id', new.raw_user_meta_data ->> 'school_id') where id = new.id;
              end if;
              return new;
            end $$;
            create trigger file_under_school after insert on auth.users for each row execute function public.file_under_school();
            create table public.lessons (id int generated always as identity primary key, school_id uuid not null, title text not null);
            alter table public.lessons enable row level security;
            create policy school_reads on public.lessons for select to authenticated
              using (school_id = (auth.jwt() -> 'app_metadata' ->> 'school_id')::uuid);
            insert into public.lessons (school_id, title) values ('\(schoolA)', 'Algebra'), ('22222222-2222-2222-2222-222222222222', 'Biology');
            """)
        return project
    }

    /// ava signs up for school A (the trigger files her there); ben's `app_metadata`
    /// is given by the plan's setup. Each reads his or her school's one lesson.
    private static let plan = """
        schemas: [public]
        personas:
          ava: { role: authenticated, email: ava.school@example.com, metadata: { school_id: "\(schoolA)" } }
          ben: { role: authenticated, email: ben.school@example.com }
        setup:
          - |
            update auth.users set raw_app_meta_data = raw_app_meta_data || '{"school_id": "22222222-2222-2222-2222-222222222222"}' where email = 'ben.school@example.com'
        relations:
          lessons:
            sample: { school_id: "'\(schoolA)'", title: "'probe'" }
            access: { ava: { select: some }, ben: { select: some } }
        """

    @Test func aTokensAppMetadataIsTheUsersRowAfterTheSetup() throws {
        let connection = try Self.database("stored-metadata")
        let plan = try AccessPlanParser(file: "stored.yml").parse(Self.plan)
        for inBackground in [true, false] {
            var runner = AccessPlanRunner(connection: connection, plan: plan)
            runner.readsCatalogInBackground = inBackground
            let report = try runner.run()
            #expect(report.failures.isEmpty, "\(inBackground): \(report.failures.map { "\($0.name): \($0.observed)" })")
            let ava = JSONText.object(report.issuedClaims["ava"] ?? "") ?? [:]
            #expect((ava["app_metadata"] as? [String: Any])?["school_id"] as? String == Self.schoolA, "\(ava)")
            #expect((ava["app_metadata"] as? [String: Any])?["provider"] as? String == "email", "\(ava)")
            let ben = JSONText.object(report.issuedClaims["ben"] ?? "") ?? [:]
            #expect((ben["app_metadata"] as? [String: Any])?["school_id"] as? String == "22222222-2222-2222-2222-222222222222", "\(ben)")
            #expect(try connection.query("select count(*)::text from auth.users").scalar == "0")
        }
    }
}
