import Foundation
import Testing
import WardenKit
import TestSupport

/// bootstrap adds only what is missing, object by object, and never replaces what
/// exists: twice is a no-op, a partial database gets back exactly its missing pieces,
/// a database built as Supabase builds it is left alone.
@Suite struct TwinBootstrapTests {
    @Test func twiceChangesNothing() throws {
        let connection = try Connection(TestCluster.newDatabase("twice"))
        guard case .installed(let created) = try SupabaseCompat.bootstrap(connection) else {
            Issue.record("a fresh database should be bootstrapped")
            return
        }
        #expect(created.contains("table auth.users") && created.contains("table storage.objects"))
        let before = try TwinCatalog.fingerprint(connection)
        #expect(try SupabaseCompat.inventory(connection).missing == [])
        #expect(try SupabaseCompat.bootstrap(connection) == .alreadyPresent)
        let after = try TwinCatalog.fingerprint(connection)
        #expect(TwinCatalog.difference(after, before) == [])
    }

    @Test func aSecondDatabaseOfTheClusterGetsItsOwnObjectsAndTouchesNoRole() throws {
        let first = try Connection(TestCluster.newDatabase("first"))
        _ = try SupabaseCompat.bootstrap(first)
        let second = try Connection(TestCluster.newDatabase("second"))
        guard case .installed(let created) = try SupabaseCompat.bootstrap(second) else {
            Issue.record("the second database should be bootstrapped")
            return
        }
        #expect(!created.contains { $0.hasPrefix("role ") || $0.hasPrefix("membership ") || $0.hasPrefix("setting ") })
        let secondRows = try TwinCatalog.fingerprint(second)
        let firstRows = try TwinCatalog.fingerprint(first).map {
            $0.replacingOccurrences(of: first.settings.parameters["dbname"] ?? "", with: second.settings.parameters["dbname"] ?? "")
        }
        #expect(TwinCatalog.difference(secondRows, firstRows) == [])
    }

    /// An older project: some pieces missing, and some of Supabase's own objects
    /// different from the twin's. Only the missing pieces come back, exactly as the
    /// twin makes them; what differs is kept.
    @Test func aPartialDatabaseGetsOnlyItsMissingPieces() throws {
        let connection = try Connection(TestCluster.newDatabase("partial"))
        _ = try SupabaseCompat.bootstrap(connection)
        try connection.execute(
            """
            create or replace function auth.uid() returns uuid language sql stable
              as $$ select nullif(current_setting('request.jwt.claim.sub', true), '')::uuid $$;
            revoke select on auth.users from dashboard_user;
            """)
        let customised = try TwinCatalog.fingerprint(connection)
        try connection.execute(
            """
            drop table auth.identities, auth.one_time_tokens;
            drop function auth.jwt(), storage.extension(text);
            drop publication supabase_realtime;
            """)
        let outcome = try SupabaseCompat.bootstrap(connection)
        #expect(outcome == .installed(created: [
            "publication supabase_realtime", "table auth.identities", "table auth.one_time_tokens",
            "function auth.jwt()", "function storage.extension(text)",
        ]))
        #expect(try TwinCatalog.difference(TwinCatalog.fingerprint(connection), customised) == [])
        #expect(try connection.query("select prosrc from pg_proc where oid = 'auth.uid()'::regprocedure").scalar?
            .contains("claims") == false)
    }

    /// Realtime's pieces come back one by one, as the twin makes them, around what is kept.
    @Test func aDatabaseMissingRealtimePiecesGetsThemBack() throws {
        let connection = try Connection(TestCluster.newDatabase("partialrt"))
        _ = try SupabaseCompat.bootstrap(connection)
        let full = try TwinCatalog.fingerprint(connection)
        try connection.execute("drop table realtime.messages; drop function realtime.send(jsonb, text, text, boolean);")
        #expect(try SupabaseCompat.bootstrap(connection) == .installed(created: [
            "function realtime.send(jsonb, text, text, boolean)", "table realtime.messages",
        ]))
        #expect(try TwinCatalog.difference(TwinCatalog.fingerprint(connection), full) == [])
        #expect(try SupabaseCompat.bootstrap(connection) == .alreadyPresent)
    }

    /// A database with everything Supabase has and more (later auth tables, other
    /// function bodies, extra grants and settings), as a real project: left as it is.
    @Test func aSupabaseBuiltDatabaseIsLeftUntouched() throws {
        let connection = try Connection(TestCluster.newDatabase("built"))
        _ = try SupabaseCompat.bootstrap(connection)
        try connection.execute(
            """
            create table auth.oauth_clients (id uuid primary key, client_name text);
            alter table auth.oauth_clients owner to supabase_auth_admin;
            create or replace function storage.foldername(name text) returns text[] language sql immutable
              as $$ select (string_to_array(name, '/'))[1:cardinality(string_to_array(name, '/')) - 1] $$;
            grant select on auth.schema_migrations to dashboard_user;
            revoke usage on schema graphql_public from anon;
            """)
        // (Role settings are cluster-wide: a per-database one stands in, leaving other tests' roles alone.)
        try connection.execute(
            "do $$ begin execute format('alter role authenticated in database %I set statement_timeout = ''10s''', current_database()); end $$")
        let before = try TwinCatalog.fingerprint(connection)
        #expect(try SupabaseCompat.bootstrap(connection) == .alreadyPresent)
        #expect(try TwinCatalog.difference(TwinCatalog.fingerprint(connection), before) == [])
    }

    @Test func withoutASuperuserItSaysWhatItNeedsAndChangesNothing() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("nosuper")
        let adminConnection = try Connection(admin)
        try adminConnection.execute("drop table auth.sso_domains")
        let before = try TwinCatalog.fingerprint(adminConnection)
        let error = try #require(throws: PGError.self) { try SupabaseCompat.bootstrap(Connection(project)) }
        #expect(error.sqlState == .insufficientPrivilege)
        #expect(error.hint?.contains("superuser") == true)
        #expect(try TwinCatalog.difference(TwinCatalog.fingerprint(adminConnection), before) == [])
    }
}

/// A server whose own superuser is not supabase_admin (a Debian cluster's `postgres`,
/// say): Supabase's owners still hold, whoever runs bootstrap. (A server of its own:
/// a second superuser would change the shared server's roles under other tests.)
@Suite struct TwinBootstrapByAnotherSuperuserTests {
    @Test func supabasesOwnersHoldWhoeverBootstraps() throws {
        let cluster = try LocalCluster.start()
        defer { cluster.stop() }
        let admin = try Connection(cluster.settings())
        try admin.execute("create role debian_admin superuser login")
        try admin.execute("create database app")
        let other = try Connection(cluster.settings(database: "app", user: "debian_admin"))
        _ = try SupabaseCompat.bootstrap(other)
        #expect(try other.query(
            """
            select string_agg(nspname || '=' || nspowner::regrole, ',' order by nspname) from pg_namespace
            where nspname in ('auth', 'storage', 'extensions', 'graphql_public', 'realtime')
            """).scalar == "auth=supabase_admin,extensions=postgres,graphql_public=supabase_admin,realtime=supabase_admin,storage=supabase_admin")
        #expect(try other.query("select proowner::regrole::text from pg_proc where proname = 'graphql'").scalar == "supabase_admin")
    }
}
