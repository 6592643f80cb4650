import Foundation
import Testing
import WardenKit
import TestSupport

/// A project exposing its own schema through the database itself, `alter role
/// authenticator set pgrst.db_schemas = 'public, app'` (Supabase's PGRST106
/// troubleshooting article): PostgREST's in-database configuration overrides its
/// config file and environment (postgrest.org, "Configuration"), so `app` is in the
/// Data API though config.toml names only `public`. `dev` said "nothing to probe ... no
/// dangers found" while any visitor wrote every row of `app.notes` (a roommates app).
@Suite struct InDatabaseExposedSchemasTests {
    @Test func theAuthenticatorsOwnSchemasAreObserved() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("in-db-schemas-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let migrations = root.appendingPathComponent("supabase/migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        try """
            create schema app;
            grant usage on schema app to anon, authenticated, service_role;
            create table app.notes (id bigint generated always as identity primary key, body text not null default 'note');
            grant all on app.notes to anon, authenticated, service_role;
            alter role authenticator set pgrst.db_schemas to 'public, app, nosuch';
            """.write(to: migrations.appendingPathComponent("20250101000000_app.sql"), atomically: true, encoding: .utf8)
        try "project_id = \"roommates\"\n\n[api]\nschemas = [\"public\"]\n"
            .write(to: root.appendingPathComponent("supabase/config.toml"), atomically: true, encoding: .utf8)
        let dev = try PgwardenCLI.run(["dev"], environment: PgwardenCLI.cleanEnvironment(), directory: root.path)
        #expect(dev.standardError.contains("the database sets authenticator's pgrst.db_schemas to 'public, app, nosuch'"), "\(dev.all)")
        // A schema it names that the database lacks is left out, named by where it came from.
        #expect(dev.standardError.contains("note: authenticator's pgrst.db_schemas names 'nosuch', which the database does not have"),
                "\(dev.all)")
        #expect(dev.standardOutput.contains("DANGER app.notes · anon: anon (no sign-in) may insert, update, delete"), "\(dev.all)")
    }
}
