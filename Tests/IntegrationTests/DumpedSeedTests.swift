import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A seed written by `supabase db dump --data-only`: pg_dump's session settings first,
/// `RESET ALL` last. The Supabase CLI runs a seed on a session of its own; pgwarden
/// takes the settings and ends them with the seeds. A setting that changes how SQL
/// text is read is still refused, and nothing is applied.
@Suite struct DumpedSeedTests {
    static let dumped = """
        SET statement_timeout = 0;
        SET lock_timeout = 0;
        SET client_encoding = 'UTF8';
        SET standard_conforming_strings = on;
        SELECT pg_catalog.set_config('search_path', '', false);
        SET check_function_bodies = false;
        SET client_min_messages = warning;
        SET row_security = off;

        INSERT INTO "public"."note" ("id", "body") VALUES (1, 'from a dump'), (2, 'a backslash \\ stays');

        RESET ALL;

        """

    private func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dumped-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder
    }

    private func database() throws -> Connection {
        let connection = try Connection(try TestCluster.newDatabase("seeddump"))
        try connection.execute("create table public.note (id int primary key, body text not null)")
        return connection
    }

    @Test func aDataOnlyDumpSeedsAndItsSettingsEndWithTheSeeds() throws {
        let connection = try database()
        let defaults = try connection.query("select current_setting('statement_timeout'), current_setting('search_path')").rows
        // Without the dump's closing RESET ALL too: the settings still end with the seeds.
        let seeds = try folder(["01_dump.sql": Self.dumped, "02_dump.sql": Self.dumped
            .replacingOccurrences(of: "RESET ALL;", with: "")
            .replacingOccurrences(of: "(1, 'from a dump'), (2, 'a backslash \\ stays')", with: "(3, 'second file')")])
        defer { try? FileManager.default.removeItem(at: seeds) }
        try Seeder(folder: seeds).apply(connection)
        #expect(try connection.query("select string_agg(body, '|' order by id) from public.note").scalar
                == #"from a dump|a backslash \ stays|second file"#)
        #expect(try connection.query("select current_setting('statement_timeout'), current_setting('search_path')").rows == defaults)
    }

    @Test func aSeedThatTurnsStandardStringsOffIsRefusedBeforeAnythingRuns() throws {
        let connection = try database()
        let seeds = try folder(["01_dump.sql": Self.dumped.replacingOccurrences(
            of: "SET standard_conforming_strings = on;", with: "SET standard_conforming_strings = off;")])
        defer { try? FileManager.default.removeItem(at: seeds) }
        #expect {
            try Seeder(folder: seeds).apply(connection)
        } throws: { error in
            "\(error)".hasSuffix("01_dump.sql:4: standard_conforming_strings may only be on: pgwarden reads the seed's statements with it on; write E'...' strings for backslash escapes; nothing was applied")
        }
        #expect(try connection.query("select count(*) from public.note").scalar == "0")
    }

    /// A dump of a live project's auth data ends with `setval` on auth's own sequences;
    /// on Supabase postgres holds every privilege on them
    /// (supabase/postgres migrations/20211115181400_update-auth-permissions.sql), so the
    /// seed, run as postgres on the twin, sets the sequence too.
    @Test func aDumpOfAuthDataSetsAuthsRefreshTokenSequenceAsPostgres() throws {
        let (admin, project) = try TestCluster.newTwinDatabase("seedauthseq")
        let seeds = try folder(["seed.sql": """
            SET session_replication_role = replica;
            SELECT pg_catalog.set_config('search_path', '', false);
            INSERT INTO "auth"."refresh_tokens" ("id", "token", "user_id", "revoked") VALUES (33, 'tok', 'someone', false);
            SELECT pg_catalog.setval('"auth"."refresh_tokens_id_seq"', 33, true);
            RESET ALL;

            """])
        defer { try? FileManager.default.removeItem(at: seeds) }
        try Seeder(folder: seeds).apply(try Connection(project))
        #expect(try Connection(admin).query("select last_value::text from auth.refresh_tokens_id_seq").scalar == "33")
        #expect(try Connection(admin).query("select count(*)::text from auth.refresh_tokens").scalar == "1")
    }
}
