import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// A seed statement that fails is named by its file and line, also when the server
/// gives no position (a duplicate object, a unique violation): then the line is where
/// the failing statement begins, as for a migration. Found on a real project whose
/// `supabase/seed.sql` was a schema dump repeating `CREATE FUNCTION` of its migrations:
/// the error named the file only, in a 1,416-line seed. Such a seed (an object that
/// exists) also gets a hint: a seed holds data only, and `supabase db reset` fails on it
/// the same way.
@Suite struct SeedFailureLocationTests {
    private func seeds(_ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seed-line-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("seed.sql"), atomically: true, encoding: .utf8)
        return folder
    }

    private func database() throws -> Connection {
        let connection = try Connection(try TestCluster.newDatabase("seedline"))
        try connection.execute("create table public.note (id int primary key, body text not null)")
        try connection.execute(unsafeStatement: "create function public.greet() returns text language sql as $$ select 'hi' $$")
        return connection
    }

    @Test func aUniqueViolationIsNamedByTheLineItsStatementBeginsOn() throws {
        let connection = try database()
        let folder = try seeds("""
            insert into public.note (id, body) values (1, 'one');

            insert into public.note (id, body)
              values (1, 'again');

            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: SeedError.self) { try Seeder(folder: folder).apply(connection) }
        #expect(error.underlying?.sqlState == .uniqueViolation)
        #expect(error.underlying?.position == nil)
        #expect(!error.description.contains("HINT"), "\(error.description)")
        #expect(error.line == 3)
        #expect(error.description.hasPrefix(folder.appendingPathComponent("seed.sql").relativePath + ":3: "))
        #expect(try connection.query("select count(*) from public.note").scalar == "0")
    }

    @Test func aDumpedFunctionThatExistsIsNamedByItsLine() throws {
        let connection = try database()
        let folder = try seeds("""
            -- a schema dump used as a seed
            SET check_function_bodies = false;

            CREATE FUNCTION public.greet() RETURNS text
                LANGUAGE sql
                AS $$ select 'hello' $$;
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: SeedError.self) { try Seeder(folder: folder).apply(connection) }
        #expect(error.underlying?.sqlState == "42723")
        #expect(error.line == 4)
        #expect(error.description.contains("\nHINT: the seed creates what already exists (a schema dump used as a seed repeats "
            + "what the migrations made): a seed holds data only"), "\(error.description)")
        #expect(try connection.query("select public.greet()").scalar == "hi")
    }

    @Test func aPositionTheServerGivesStillWins() throws {
        let connection = try database()
        let folder = try seeds("""
            insert into public.note (id, body) values (1, 'one');
            insert into public.note (id, body)
            values (2, 'two'),
                   (3, nope);
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: SeedError.self) { try Seeder(folder: folder).apply(connection) }
        #expect(error.underlying?.sqlState == .undefinedColumn)
        #expect(error.line == 4)
        #expect(try connection.query("select count(*) from public.note").scalar == "0")
    }
}
