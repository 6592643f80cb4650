import Testing
import WardenKit
import TestSupport

@Suite struct SupabaseCompatTests {
    @Test func bootstrapsOnceAndThenChangesNothing() throws {
        let connection = try TestCluster.connect()
        let first = try SupabaseCompat.bootstrap(connection)
        guard case .installed(let created) = first else {
            Issue.record("expected an install, got \(first)")
            return
        }
        #expect(created.contains("table auth.users"))
        let inventory = try SupabaseCompat.inventory(connection)
        #expect(inventory.isComplete)
        let catalogBefore = try catalogFingerprint(connection)
        #expect(try SupabaseCompat.bootstrap(connection) == .alreadyPresent)
        #expect(try catalogFingerprint(connection) == catalogBefore)
    }

    /// (Every role fact, with its source, is in Twin/TwinFactsTests.swift.)
    @Test func createsTheRolesWithSupabasesAttributes() throws {
        let connection = try TestCluster.connect()
        _ = try SupabaseCompat.bootstrap(connection)
        let rows = try connection.query(
            """
            select rolname, rolcanlogin, rolbypassrls, rolinherit from pg_roles
            where rolname in ('anon','authenticated','service_role','authenticator') order by rolname
            """
        ).rows
        // INHERIT for the API roles, as Supabase altered them (20230529180330_alter_api_roles_for_inherit).
        #expect(rows == [
            ["anon", "f", "f", "t"], ["authenticated", "f", "f", "t"],
            ["authenticator", "t", "f", "f"], ["service_role", "f", "t", "t"],
        ])
        let member = try connection.query("select pg_has_role('authenticator', 'anon', 'member')").scalar
        #expect(member == "t")
    }

    @Test func authFunctionsReadTheRequestClaims() throws {
        let connection = try TestCluster.connect()
        _ = try SupabaseCompat.bootstrap(connection)
        let claims = #"{"sub":"6f1c4a52-6d0e-4b8e-9d55-2c1d1f6f0a11","role":"authenticated","email":"zoë@example.com"}"#
        try connection.transaction {
            try connection.query("select set_config('request.jwt.claims', \(claims), true)")
            try connection.execute("set local role authenticated")
            let row = try connection.query("select auth.uid()::text, auth.role(), auth.email(), auth.jwt()->>'role'").rows
            #expect(row == [["6f1c4a52-6d0e-4b8e-9d55-2c1d1f6f0a11", "authenticated", "zoë@example.com", "authenticated"]])
        }
        // The legacy per-claim setting wins, as on Supabase.
        try connection.transaction {
            try connection.query("select set_config('request.jwt.claims', \(claims), true)")
            try connection.execute("select set_config('request.jwt.claim.sub', '00000000-0000-0000-0000-000000000001', true)")
            #expect(try connection.query("select auth.uid()::text").scalar == "00000000-0000-0000-0000-000000000001")
        }
        // Outside a request there is no user.
        #expect(try connection.query("select auth.uid() is null").scalar == "t")
    }

    @Test func grantsNewPublicTablesToTheAPIRoles() throws {
        let connection = try TestCluster.connect()
        _ = try SupabaseCompat.bootstrap(connection)
        try connection.execute("create table public.note (id int)")
        let privileges = try connection.query(
            "select has_table_privilege('anon', 'public.note', 'select'), has_table_privilege('authenticated', 'public.note', 'insert')"
        ).rows
        #expect(privileges == [["t", "t"]])
        // But nothing on auth.users.
        #expect(try connection.query("select has_table_privilege('anon', 'auth.users', 'select')").scalar == "f")
    }

    @Test func leavesACompleteDatabaseUntouched() throws {
        // A database that already has the roles, auth.users and auth.uid() (as a real
        // Supabase project does) is left exactly as it is, even if its definitions differ.
        let connection = try TestCluster.connect()
        _ = try SupabaseCompat.bootstrap(connection)
        try connection.execute("create or replace function auth.uid() returns uuid language sql stable as $$ select null::uuid $$")
        let before = try catalogFingerprint(connection)
        #expect(try SupabaseCompat.bootstrap(connection) == .alreadyPresent)
        #expect(try catalogFingerprint(connection) == before)
        let body = try connection.query("select prosrc from pg_proc where oid = 'auth.uid()'::regprocedure").scalar
        #expect(body?.contains("null::uuid") == true)
    }

    /// Names, definitions and privileges of everything in auth and public.
    private func catalogFingerprint(_ connection: Connection) throws -> [[String?]] {
        try connection.query(
            """
            select n.nspname, c.relname, c.relkind::text, coalesce(c.relacl::text, '')
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname in ('auth', 'public')
            union all
            select n.nspname, p.proname, md5(p.prosrc), coalesce(p.proacl::text, '')
            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname in ('auth', 'public')
            union all
            select 'defacl', d.defaclobjtype::text, d.defaclacl::text, '' from pg_default_acl d
            order by 1, 2, 3
            """
        ).rows
    }
}
