import Foundation
import Testing
import WardenKit
import TestSupport

/// A text column named for an e-mail address with a check that it looks like one
/// (`email ~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'`, common on invitation and contact tables).
/// The draft's samples gave it `'Draft email'`, which the check refused: no setup row,
/// no insert allowed, every update and delete probe "cannot probe", and the drafted plan
/// failed its own run. Now a column whose name says email gets an address
/// (`draft@example.com`; per persona `draft1@example.com`, `draft2@example.com` where
/// it is unique). Found on a home-inventory app's `household_invites`.
@Suite struct DraftEmailValueTests {
    static let schema = #"""
        create table public.contacts (
          id uuid primary key default gen_random_uuid(),
          user_id uuid not null references auth.users on delete cascade,
          email text not null unique check (email ~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
          backup_email varchar(40) not null check (backup_email like '%@%'));
        alter table public.contacts enable row level security;
        create policy "own contacts" on public.contacts for all to authenticated
          using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
        """#

    @Test func anEmailColumnGetsAnAddress() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("emailvalue").project)
        try connection.execute(unsafeScript: Self.schema)
        let draft = try PlanDrafter(connection: connection).draft()
        #expect(!draft.yaml.contains("setup row was refused"), "\(draft.yaml)")
        let contacts = try #require(draft.plan.relations.first { $0.name == "contacts" })
        let own = Access(select: .own, insert: .own, update: .own, delete: .own)
        #expect(contacts.access["ava"] == own, "\(draft.yaml)")
        let drafted = try AccessPlanParser(file: "draft.yml").parse(draft.yaml)
        let report = try AccessPlanRunner(connection: connection, plan: drafted).run()
        #expect(report.failures.isEmpty, "\(report.failures.map { "\($0.name): \($0.observed)" })")
        #expect(try connection.query("select count(*)::text from public.contacts").scalar == "0")
    }
}
