import Foundation
import Testing
import WardenKit
import TestSupport

/// One persona's truth stands for every persona's only where the request's claims
/// cannot change what the admin sees (`RelationProber.sharesOneTruth`, issue 18): a
/// table with no owner rule that row-level security does not restrict for the admin.
@Suite struct SharedTruthTests {
    /// `public.memo`, row security forced and its one select policy reading the
    /// claims, owned by `memo_owner` (a member of the project owner, without its
    /// BYPASSRLS): the admin sees, with each persona's claims, only that persona's memo.
    private func database() throws -> Connection {
        let (admin, project) = try TestCluster.newTwinDatabase("truth")
        let superuser = try Connection(admin)
        try superuser.execute(
            """
            create role memo_owner login in role postgres;
            grant anon, authenticated, service_role to memo_owner;
            -- Supabase Auth's tables have row security on (postgres bypasses it): let
            -- memo_owner sign the personas up and in.
            do $$
            declare t text;
            begin
              foreach t in array array['users', 'identities', 'sessions', 'mfa_amr_claims'] loop
                execute format('create policy memo_owner_signs_in on auth.%I to memo_owner using (true) with check (true)', t);
              end loop;
            end $$
            """)
        let owner = try Connection(try TestCluster.cluster.settings(
            database: project.parameters["dbname"] ?? "", user: "memo_owner"))
        try owner.execute(
            """
            create table public.memo (id bigint generated always as identity primary key, user_id uuid, body text);
            alter table public.memo enable row level security;
            alter table public.memo force row level security;
            create policy "each reads their memo" on public.memo for select using (user_id = auth.uid());
            create policy "the owner writes" on public.memo for insert to memo_owner with check (true);
            grant select, insert, update, delete on public.memo to anon, authenticated
            """)
        return owner
    }

    private static let plan = """
        schemas: [public]
        personas:
          ava: { role: authenticated, email: ava.memo@example.com }
          ben: { role: authenticated, email: ben.memo@example.com }
        setup:
          - |
            insert into public.memo (user_id, body)
            select id, 'memo of ' || email from auth.users where email like '%.memo@example.com'
        relations:
          memo:
            sample: { body: "'probe'" }
            access: { authenticated: { select: all } }
        """

    @Test func forcedRowSecurityKeepsEachPersonasTruth() throws {
        let connection = try database()
        let report = try AccessPlanRunner(
            connection: connection, plan: AccessPlanParser(file: "memo.yml").parse(Self.plan)
        ).run()
        let reads = Dictionary(
            report.results.filter { $0.operation == .select }.map { ($0.persona ?? "", $0.observed) },
            uniquingKeysWith: { first, _ in first })
        // Each persona sees its own memo, which is all the admin sees with its claims;
        // ava's truth (her memo) must not stand for ben's.
        #expect(reads["ava"] == "all (1 rows)")
        #expect(reads["ben"] == "all (1 rows)")
        #expect(report.failures.map(\.name) == [])
    }
}
