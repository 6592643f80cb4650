import Foundation
import Testing
import WardenKit
import TestSupport

/// SQL that Supabase itself refuses to postgres, met in real projects: a seed that is an
/// old schema dump (`ALTER DEFAULT PRIVILEGES FOR ROLE supabase_admin ...`: "must be
/// member of role supabase_admin"), and a pgTAP setup file written for bare PostgreSQL
/// that creates `auth.users` ("permission denied for schema auth"). The twin refuses
/// both, rightly, but the bare server message left the user wondering whether pgwarden's
/// twin was wrong. Now each names the file and line as before and adds a hint saying
/// Supabase refuses it too and what to change. Found on a chat app's seed and a kanban
/// app's test setup.
@Suite struct SupabaseRestrictionHintTests {
    private func project(seed: String, test: String? = nil) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("restriction-\(UUID().uuidString)")
        let tests = root.appendingPathComponent("supabase/tests")
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("supabase/migrations"), withIntermediateDirectories: true)
        try "project_id = \"hint\"\n".write(to: root.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        try seed.write(to: root.appendingPathComponent("supabase/seed.sql"), atomically: true, encoding: .utf8)
        if let test { try test.write(to: tests.appendingPathComponent("setup.sql"), atomically: true, encoding: .utf8) }
        return root
    }

    @Test func aSeedForSupabaseAdminSaysSupabaseRefusesItToo() throws {
        let root = try project(seed: "select 1;\nalter default privileges for role supabase_admin in schema public grant all on tables to anon;\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let dev = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root.path)
        #expect(dev.status != 0, "\(dev.all)")
        #expect(dev.standardError.contains("supabase/seed.sql:2: ERROR: must be member of role \"supabase_admin\""), "\(dev.all)")
        #expect(dev.standardError.contains("HINT: on Supabase too, postgres is not supabase_admin nor a member of it"), "\(dev.all)")
    }

    @Test func aTestThatCreatesInAuthSaysSupabaseRefusesItToo() throws {
        let root = try project(seed: "select 1;\n", test: "create table if not exists auth.users (id uuid primary key);\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let dev = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root.path)
        #expect(dev.status != 0, "\(dev.all)")
        #expect(dev.all.contains("42501: permission denied for schema auth (hint: on Supabase too, postgres may use the auth schema but not create objects in it"),
                "\(dev.all)")
    }

    /// A seed (or migration) altering a table of `auth`, which postgres does not own on
    /// Supabase either (found on an indie games platform: `alter table
    /// auth.saml_relay_states ...`): the bare "must be owner of table" now has its hint.
    @Test func alteringAnAuthTableSaysSupabaseRefusesItToo() throws {
        let root = try project(seed: "alter table auth.users add column nickname text;\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let dev = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root.path)
        #expect(dev.status != 0, "\(dev.all)")
        #expect(dev.standardError.contains("supabase/seed.sql:1: ERROR: must be owner of table users"), "\(dev.all)")
        #expect(dev.standardError.contains("HINT: if this is auth.users: on Supabase too, auth's tables belong to supabase_auth_admin"),
                "\(dev.all)")
    }

    /// A test file creating a database.dev package (`basejump-supabase_test_helpers`), which
    /// is not one of Supabase's extensions: the hint said Supabase provides it.
    @Test func aDbdevPackageIsNotCalledOneSupabaseProvides() throws {
        let root = try project(seed: "select 1;\n", test: "create extension if not exists \"basejump-supabase_test_helpers\";\nselect 1;\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let dev = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root.path)
        #expect(dev.status != 0, "\(dev.all)")
        #expect(dev.all.contains("which is not one Supabase's image ships: it may be a database.dev (dbdev) package"), "\(dev.all)")
        #expect(!dev.all.contains("which Supabase provides"), "\(dev.all)")
    }

    /// A table keeping a foreign key to Vault's secrets (an AI-builder's deployments):
    /// postgres has no REFERENCES on `vault.secrets`, on Supabase either (Vault's
    /// after-create script grants it select and delete), and the bare 42501 had no hint.
    @Test func aForeignKeyToVaultSecretsSaysSupabaseRefusesItToo() throws {
        let root = try project(seed: "create table public.deployments (id bigint primary key, secret_id uuid references vault.secrets (id));\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let dev = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root.path)
        #expect(dev.status != 0, "\(dev.all)")
        #expect(dev.standardError.contains("supabase/seed.sql:1: ERROR: permission denied for table secrets"), "\(dev.all)")
        #expect(dev.standardError.contains("HINT: if this is Vault's (vault.secrets): on Supabase too, postgres may only select and delete secrets"),
                "\(dev.all)")
    }

    /// A pgTAP file setting a role the migrations created but never granted to postgres (a
    /// webhook worker's role): a bare 42501, and the note about grants that does not
    /// apply. Now the hint says why, and what to grant.
    @Test func settingARolePostgresMadeSaysToGrantItFirst() throws {
        let root = try project(seed: "create role hook_worker nologin;\n", test: "begin;\nset local role hook_worker;\nselect 1;\nrollback;\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let dev = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root.path)
        #expect(dev.status != 0, "\(dev.all)")
        #expect(dev.all.contains("42501: permission denied to set role \"hook_worker\" (hint: on Supabase too, postgres is no superuser"), "\(dev.all)")
        #expect(dev.all.contains("grant hook_worker to postgres before setting it"), "\(dev.all)")
    }
}
