import Foundation
import Testing
import WardenKit
import TestSupport

/// The accounts the runner creates for anonymous and social-login personas, seen
/// from inside the run (each check's `verify` is admin SQL with the persona's claims).
/// Each has `encrypted_password` '' as Supabase Auth writes it for a user without a
/// password (`NewUser` in supabase/auth `internal/models/user.go`: never NULL), so a
/// sign-up trigger copying it into a NOT NULL column accepts the personas.
@Suite struct PersonaAccountIntegrationTests {
    private func run(_ text: String, on connection: Connection) throws -> AccessPlanReport {
        try AccessPlanRunner(connection: connection, plan: AccessPlanParser(file: "plan.yml").parse(text)).run()
    }

    private let plan = """
        personas:
          guest: { role: authenticated, anonymous: true, metadata: { display_name: G } }
          jay:
            role: authenticated
            email: jay@example.com
            provider: kakao
            app_metadata: { tier: gold }
        checks:
          - name: the anonymous row
            as: guest
            sql: select auth.jwt() ->> 'is_anonymous'
            expect: { value: "true" }
            verify: |
              select u.is_anonymous and u.email is null and u.email_confirmed_at is null
                 and u.encrypted_password = ''
                 and u.raw_app_meta_data = '{"provider": "anonymous", "providers": ["anonymous"]}'
                 and u.raw_user_meta_data = '{"display_name": "G"}'
              from auth.users u where u.id = auth.uid()
          - name: the kakao row
            as: jay
            sql: select auth.jwt() -> 'app_metadata' ->> 'tier'
            expect: { value: gold }
            verify: |
              select not u.is_anonymous and u.email = 'jay@example.com' and u.encrypted_password = ''
                 and u.raw_app_meta_data = '{"provider": "kakao", "providers": ["kakao"], "tier": "gold"}'
              from auth.users u where u.id = auth.uid()

        """

    @Test func createsAnAnonymousUserAndAProviderUser() throws {
        let connection = try Connection(TestCluster.newDatabase("persona"))
        _ = try SupabaseCompat.bootstrap(connection)
        let report = try run(plan, on: connection)
        #expect(report.failingCells.isEmpty, "\(report.failures.map { "\($0.subject): \($0.observed)" })")
        #expect(report.results.count == 2)
        #expect(try connection.query("select count(*) from auth.users").scalar == "0")
    }

    /// With Supabase's auth.identities (columns as documented at
    /// https://supabase.com/docs/guides/auth/identities; the twin's own table when
    /// it has one), a provider user gets its identity row and an anonymous user none.
    @Test func addsTheIdentityRowWhereTheTableExists() throws {
        let connection = try Connection(TestCluster.newDatabase("persona"))
        _ = try SupabaseCompat.bootstrap(connection)
        try connection.execute("""
            create table if not exists auth.identities (
              provider_id text not null,
              user_id uuid not null references auth.users (id) on delete cascade,
              identity_data jsonb not null,
              provider text not null,
              last_sign_in_at timestamptz,
              created_at timestamptz,
              updated_at timestamptz,
              email text generated always as (lower(identity_data ->> 'email')) stored,
              id uuid not null default gen_random_uuid() primary key,
              unique (provider_id, provider)
            )
            """)
        let text = plan + """
              - name: jay's identity
                as: jay
                sql: select 1
                verify: |
                  select count(*) = 1 and bool_and(i.provider = 'kakao' and i.email = 'jay@example.com'
                                                   and i.provider_id <> auth.uid()::text
                                                   and i.identity_data ->> 'sub' = i.provider_id
                                                   and i.created_at is not null)
                  from auth.identities i where i.user_id = auth.uid()
              - name: no identity for the anonymous user
                as: guest
                sql: select 1
                verify: select not exists (select 1 from auth.identities where user_id = auth.uid())

            """
        let report = try run(text, on: connection)
        #expect(report.failingCells.isEmpty, "\(report.failures.map { "\($0.subject): \($0.observed)" })")
        #expect(report.results.count == 4)
        #expect(try connection.query("select count(*) from auth.identities").scalar == "0")
    }
}
