import Foundation
import Testing
@testable import WardenKit
import WardenPostgres
import TestSupport

/// With no custom access token hook, the personas' session rows are written at the head
/// of the truth's batch (`PersonaTokenIssuer.Unsent`): their tokens are made before,
/// from what the rows will hold. A row the database refuses still stops the run with
/// the persona's name and the server's message, and leaves nothing.
@Suite struct SignInWithTheTruthTests {
    private static let planText = """
        schemas: [public]
        personas:
          ava: { role: authenticated, email: ava.truth@example.com }
          ben: { role: authenticated, email: ben.truth@example.com }
        relations:
          note:
            sample: { body: "'probe'" }
            access: { ava: read, ben: read }
        """

    private static func database(_ label: String) throws -> (admin: Connection, project: Connection) {
        let settings = try TestCluster.newTwinDatabase(label)
        let project = try Connection(settings.project)
        try project.execute(
            """
            create table public.note (id bigint generated always as identity primary key, body text);
            alter table public.note enable row level security;
            create policy "signed-in users read" on public.note for select to authenticated using (true);
            insert into public.note (body) values ('one')
            """)
        return (try Connection(settings.admin), project)
    }

    @Test func aRefusedSessionRowStopsTheRunNamingItsPersona() throws {
        let (admin, connection) = try Self.database("sign-in-truth")
        try admin.execute(
            """
            create function public.refuse_ben() returns trigger language plpgsql as $$
            begin
              if (select email from auth.users where id = new.user_id) like 'ben.%' then
                raise exception 'no sessions for ben';
              end if;
              return new;
            end $$;
            create trigger refuse_ben before insert on auth.sessions
              for each row execute function public.refuse_ben()
            """)
        let plan = try AccessPlanParser(file: "truth.yml").parse(Self.planText)
        for inBackground in [true, false] {
            var runner = AccessPlanRunner(connection: connection, plan: plan)
            runner.readsCatalogInBackground = inBackground
            let error = #expect(throws: AccessPlanError.self) { try runner.run() }
            #expect(error?.message.contains("signing in the user of persona 'ben' failed") == true, "\(String(describing: error))")
            #expect(error?.message.contains("no sessions for ben") == true)
            #expect(connection.transactionStatus == .idle)
            #expect(try connection.query("select count(*)::text from auth.users").scalar == "0")
            #expect(try connection.query("select count(*)::text from pg_prepared_statements").scalar == "0")
        }
    }

    @Test func theTruthSeesTheSessionRows() throws {
        let (admin, connection) = try Self.database("sign-in-truth-seen")
        // Ava reads the notes only while a session of hers exists: the truth (as the
        // admin with her claims) and her read must both see the row written at the head
        // of the truth's batch.
        try admin.execute(
            """
            create view public.my_sessions with (security_invoker = false) as
              select count(*) as n from auth.sessions where user_id = auth.uid();
            grant select on public.my_sessions to authenticated
            """)
        let plan = try AccessPlanParser(file: "truth.yml").parse(
            """
            schemas: [public]
            personas:
              ava: { role: authenticated, email: ava.seen@example.com }
            relations:
              note:
                sample: { body: "'probe'" }
                access: { ava: read }
              my_sessions:
                access: { ava: read }
            checks:
              - name: ava has a session
                as: ava
                sql: select n::text from public.my_sessions
                expect: { value: "1" }
            """)
        let report = try AccessPlanRunner(connection: connection, plan: plan).run()
        #expect(report.failures.map(\.name) == [], "\(report.failures)")
    }
}
