import Foundation
import Testing
import WardenKit
import TestSupport

/// Real folders as other tools write them: Supabase files wrapped in BEGIN/COMMIT,
/// stray `.sql` files, golang-migrate pairs, pg_dump COPY blocks; and files that must
/// stop every command before anything runs (FIFOs, dangling links).
@Suite struct FolderFormatTests {
    func arguments(_ database: TestDatabase, _ folder: MigrationFolder) throws -> [String] {
        ["--database-url", try database.url, "--migrations", folder.path]
    }

    @Test func supabaseFilesWrappedInBeginCommitRunAtomicallyInPgwardensTransaction() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "20240101000000_realtime.sql": """
                begin;
                  drop publication if exists supabase_realtime;
                  create publication supabase_realtime;
                commit;
                alter publication supabase_realtime add table profiles;
                """,
            "20231231000000_profiles.sql": "BEGIN;\ncreate table profiles (id int primary key);\nCOMMIT;\n",
        ])
        let output = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(output.status == 0, "\(output.all)")
        #expect(output.standardError.contains("20240101000000_realtime.sql: its BEGIN/COMMIT (lines 1, 4) are dropped"))
        #expect(try database.scalar("select count(*) from pg_publication_tables where pubname = 'supabase_realtime'") == "1")
        #expect(try database.historyVersions() == ["20231231000000", "20240101000000"])

        // Atomic: a failure after the wrapped part undoes the wrapped part too.
        try folder.write("20240102000000_broken.sql", "begin;\ncreate table half (id int);\ncommit;\ninsert into nowhere values (1);\n")
        let broken = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(broken.status == 1)
        #expect(broken.standardError.contains("20240102000000_broken.sql:4:13: relation \"nowhere\" does not exist"),
                "\(broken.standardError)")
        #expect(broken.standardError.contains("migration 20240102000000 was rolled back: nothing of it remains"))
        #expect(try !database.exists("half"))
        #expect(try database.historyVersions() == ["20231231000000", "20240101000000"])
    }

    /// An enum value added in its own BEGIN/COMMIT and used after that COMMIT (the
    /// reason authors wrap it, hivecom's migrations): PostgreSQL refuses a new enum
    /// value until it is committed (55P04), so the file runs as the Supabase CLI runs
    /// it, with its COMMIT honoured, one statement at a time.
    @Test func anEnumValueCommittedInItsOwnPairMayBeUsedAfterIt() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "20240101000000_color.sql": "create type color as enum ('red');\n",
            "20240102000000_blue.sql": """
                begin;
                alter type color add value if not exists 'blue';
                commit;
                begin;
                create table paint (c color default 'blue');
                commit;
                """,
        ])
        let output = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(output.status == 0, "\(output.all)")
        #expect(output.standardError.contains(
            "20240102000000_blue.sql: its BEGIN/COMMIT (lines 1, 3) add an enum value that a later statement uses"),
            "\(output.standardError)")
        #expect(try database.exists("paint"))
        #expect(try database.historyVersions() == ["20240101000000", "20240102000000"])

        // The same when a DO block adds it, guarded by pg_enum (hivecom's migrations).
        try folder.write("20240102000001_plum.sql", """
            BEGIN;
            DO $$
            BEGIN
              IF NOT EXISTS (SELECT 1 FROM pg_enum WHERE enumlabel = 'plum' AND enumtypid = 'color'::regtype) THEN
                ALTER TYPE color ADD VALUE 'plum';
              END IF;
            END
            $$;
            COMMIT;
            BEGIN;
            INSERT INTO paint VALUES ('plum'::color);
            COMMIT;
            """)
        let guarded = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(guarded.status == 0, "\(guarded.all)")
        #expect(try database.scalar("select count(*)::text from paint where c = 'plum'") == "1")

        // A value nothing after the pair uses keeps the file atomic.
        try folder.write("20240103000000_green.sql", "begin;\nalter type color add value 'green';\ncommit;\ncreate table brush (id int);\n")
        let atomic = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(atomic.status == 0, "\(atomic.all)")
        #expect(atomic.standardError.contains("20240103000000_green.sql: its BEGIN/COMMIT (lines 1, 3) are dropped"))

        // What the honoured COMMIT committed stays when a later statement fails, and
        // the run says so.
        try folder.write("20240104000000_teal.sql", """
            begin;
            alter type color add value 'teal';
            commit;
            create table teal_paint (c color default 'teal');
            insert into nowhere values (1);
            """)
        let broken = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(broken.status == 1)
        #expect(try database.scalar("select count(*)::text from pg_enum where enumlabel = 'teal'") == "1")
        #expect(broken.standardError.contains(
            "migration 20240104000000 ran without a transaction: 4 statements before the failing one are committed, and the history marks it failed"),
            "\(broken.standardError)")
        #expect(try database.scalar("select to_regclass('teal_paint') is not null") == "t")
    }

    /// A COMMIT with no BEGIN open after an enum value that a later statement uses (the
    /// makerkit templates' `alter type ... add value 'x'; commit;` then statements using
    /// 'x'): the Supabase CLI runs a file in one implicit transaction, which such a COMMIT
    /// commits, and applies it; pgwarden refused it (12 files of one real project). It
    /// runs as written now, with a note; a lone COMMIT that ends a file is dropped (the
    /// file stays atomic). Any other COMMIT with no BEGIN open is still refused (issue 15).
    @Test func aCommitAfterAnEnumValueRunsAsTheSupabaseCLIRunsIt() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "20240101000000_perm.sql": "create type perm as enum ('read');\ncreate table grants (p perm);\n",
            "20240102000000_write.sql": "alter type perm add value 'write';\ncommit;\n\ninsert into grants values ('write');\n",
            "20240104000000_tail.sql": "create table c (id int);\ncommit;\n",
            "20240104000001_unused.sql": "alter type perm add value 'admin';\ncommit;\ncreate table e (id int);\n",
        ])
        let up = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(up.status == 0, "\(up.all)")
        #expect(up.standardError.contains(
            "20240102000000_write.sql: line 2 is a COMMIT with no BEGIN open after an enum value it adds, which a later statement uses"),
            "\(up.standardError)")
        #expect(up.standardError.contains("20240104000000_tail.sql: its COMMIT (line 2), with no BEGIN before it, is dropped"),
                "\(up.standardError)")
        // An enum value nothing after its COMMIT uses: the COMMIT is dropped, the file atomic.
        #expect(up.standardError.contains("20240104000001_unused.sql: its COMMIT (line 2), with no BEGIN before it, is dropped"),
                "\(up.standardError)")
        #expect(try database.scalar("select count(*)::text from grants where p = 'write'") == "1")
        #expect(try database.scalar("select (to_regclass('c') is not null)::text") == "true")
        #expect(try database.historyVersions()?.count == 4)

        // A COMMIT whose reason pgwarden cannot see is refused, with its line.
        try folder.write("20240105000000_other.sql", "create table d (id int);\ncommit;\ndelete from grants;\n")
        let other = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(other.status == 65, "\(other.all)")
        #expect(other.standardError.contains("20240105000000_other.sql:2: `COMMIT`: a COMMIT without a BEGIN before it"), "\(other.standardError)")
        #expect(try database.scalar("select (to_regclass('d') is null)::text") == "true")
        #expect(try database.scalar("select count(*)::text from grants") == "1")
    }

    /// `CREATE INDEX CONCURRENTLY` (and the other statements that cannot run in a
    /// transaction block) in a file without markers: since 2.109 the Supabase CLI runs it
    /// on its own, outside the file's batch; pgwarden failed with 25001 and asked for a
    /// `transaction:false` marker. The file now runs as written, with a note.
    @Test func aConcurrentIndexRunsAsTheSupabaseCLIRunsIt() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "20240101000000_notes.sql": "create table notes (id int primary key, owner uuid);\n",
            "20240102000000_idx.sql": "-- no lock on writes\ncreate index concurrently notes_owner on notes (owner);\nvacuum notes;\n",
        ])
        let up = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(up.status == 0, "\(up.all)")
        #expect(up.standardError.contains("20240102000000_idx.sql: line 2 is CREATE INDEX CONCURRENTLY, which cannot run inside a "
            + "transaction block; the Supabase CLI (2.109 and later) runs such a statement on its own"), "\(up.standardError)")
        #expect(try database.scalar("select (to_regclass('notes_owner') is not null)::text") == "true")
        #expect(try database.historyVersions()?.count == 2)
    }

    /// The Supabase CLI applies `<digits>_<anything>.sql`, an empty name and spaces
    /// included (`20250101000001_.sql`, which a real project's row-level security was in):
    /// pgwarden skipped them, and showed made-up dangers of the tables left open.
    @Test func anEmptyNameOrOneWithSpacesIsAMigrationAsTheSupabaseCLIReadsIt() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "20240107152745_init.sql": "create table t (id int);",
            "20240107152746_.sql": "alter table t add column secured boolean;",
            "20240107152747_add a column.sql": "alter table t add column spaced int;",
        ])
        let up = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(up.status == 0, "\(up.all)")
        #expect(!up.standardError.contains("skipped"), "\(up.all)")
        #expect(try database.scalar("select count(*)::text from pg_attribute where attrelid = 't'::regclass and attname in ('secured', 'spaced')") == "2")
    }

    @Test func sqlFilesThatAreNotMigrationsAreSkippedWithAWarning() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "20240107152745_init.sql": "create table t (id int);",
            "local_20240107152745_ollama.sql": "drop table t;",
            "seed.sql": "insert into t values (1);",
        ])
        let up = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(up.status == 0, "\(up.all)")
        for name in ["local_20240107152745_ollama.sql", "seed.sql"] {
            #expect(up.standardError.contains("warning: \(folder.path)/\(name): skipped: not a migration file name"))
        }
        #expect(try database.scalar("select count(*) from t") == "0")
        let status = try PgwardenCLI.run(["status"] + arguments(database, folder))
        #expect(status.status == 0)
        #expect(status.standardOutput.contains("skipped \(folder.path)/seed.sql: not a migration file name"))
        let json = try PgwardenCLI.run(["status", "--format", "json"] + arguments(database, folder))
        let document = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect((document?["skipped"] as? [String])?.count == 2)
    }

    @Test func golangMigratePairsApplyAndRollBack() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "000001_init.up.sql": "BEGIN;\ncreate table accounts (id int);\nCOMMIT;\n",
            "000001_init.down.sql": "drop table accounts;\n",
            "000002_index.up.sql": "create index accounts_id on accounts (id);\n",
            "000002_index.down.sql": "drop index accounts_id;\n",
        ])
        let up = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(up.status == 0, "\(up.all)")
        #expect(up.standardOutput.contains("applied 000001 init") && up.standardOutput.contains("applied 000002 index"))
        #expect(try database.exists("accounts_id"))
        let down = try PgwardenCLI.run(["down", "--all"] + arguments(database, folder))
        #expect(down.status == 0, "\(down.all)")
        #expect(try !database.exists("accounts"))
        #expect(try database.historyVersions() == [])
        // A failing down file is reported at its own path and line.
        try folder.write("000001_init.down.sql", "\ndrop table no_such_table;\n")
        _ = try PgwardenCLI.run(["up"] + arguments(database, folder))
        let failing = try PgwardenCLI.run(["down", "--all"] + arguments(database, folder))
        #expect(failing.standardError.contains("\(folder.path)/000001_init.down.sql:2"), "\(failing.standardError)")
        #expect(failing.standardError.contains("\"no_such_table\" does not exist"))
    }

    @Test func aFifoOrADanglingLinkStopsEveryCommandAtOnce() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(["1_ok.sql": "create table ok (id int);"])
        #expect(mkfifo(folder.path + "/2_pipe.sql", 0o644) == 0)
        for command in ["up", "status"] {
            let running = try PgwardenCLI.start([command] + arguments(database, folder))
            let finished = PgwardenCLI.waitFor(seconds: 20) { running.process.isRunning ? nil : true }
            if finished == nil { kill(running.process.processIdentifier, SIGKILL) }
            let output = running.wait()
            #expect(finished == true, "\(command) blocked on the FIFO")
            #expect(output.status == 65)
            #expect(output.standardError.contains("\(folder.path)/2_pipe.sql: is a FIFO (named pipe), not a regular file"))
        }
        try folder.remove("2_pipe.sql")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/2_link.sql", withDestinationPath: "gone.sql")
        let dangling = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(dangling.status == 65)
        #expect(dangling.standardError.contains("\(folder.path)/2_link.sql: is a symbolic link to gone.sql, which does not exist"))
        #expect(try database.historyVersions() == nil)
    }

    static let dump = """
        SET standard_conforming_strings = on;
        CREATE TABLE public.riders (id integer, name text, note text);
        COPY public.riders (id, name, note) FROM stdin;
        1\tAda\tback\\\\slash; drop table riders;
        2\tGrace\t\\N
        3\tLin\t'quoted'
        \\.
        CREATE INDEX riders_id ON public.riders (id);
        """

    @Test(arguments: ["", "-- migrate:up transaction:false\n"])
    func pgDumpCopyBlocksStreamThroughTheCopyProtocol(_ marker: String) throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(["1_dump.sql": marker + Self.dump])
        let output = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(output.status == 0, "\(output.all)")
        let rows = try database.connection.query("select id, name, note from riders order by id").rows
        #expect(rows == [["1", "Ada", "back\\slash; drop table riders;"], ["2", "Grace", nil], ["3", "Lin", "'quoted'"]])
        #expect(try database.exists("riders_id"))
    }

    @Test func aBadCopyRowRollsTheMigrationBackAndNamesTheFile() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(["1_dump.sql": "create table n (id int);\ncopy n (id) from stdin;\n1\nnot-a-number\n\\.\n"])
        let output = try PgwardenCLI.run(["up"] + arguments(database, folder))
        #expect(output.status == 1)
        #expect(output.standardError.contains("\(folder.path)/1_dump.sql"))
        #expect(output.standardError.contains("invalid input syntax for type integer"), "\(output.standardError)")
        #expect(try !database.exists("n"))
    }

    @Test func seedFilesStreamCopyBlocksAndRefuseNulBytes() throws {
        let database = try TestDatabase()
        try database.connection.execute("create table riders (id integer, name text, note text)")
        let seeds = try MigrationFolder(["1_riders.sql": Self.dump.split(separator: "\n").dropFirst(2).joined(separator: "\n")])
        try Seeder(folder: URL(fileURLWithPath: seeds.path)).apply(database.connection)
        #expect(try database.scalar("select string_agg(name, ',' order by id) from riders") == "Ada,Grace,Lin")
        try seeds.write("2_nul.sql", bytes: Array("insert into riders values (9);\n".utf8) + [0])
        #expect(throws: SeedError.self) { try Seeder(folder: URL(fileURLWithPath: seeds.path)).apply(database.connection) }
        do {
            try Seeder(folder: URL(fileURLWithPath: seeds.path)).apply(database.connection)
        } catch let error as SeedError {
            #expect(error.description.contains("2_nul.sql:2: contains a NUL byte"))
        }
        #expect(try database.scalar("select count(*) from riders") == "3")
    }

    @Test func bothModesStoreTheSameTextEvenWhenTheDatabaseDefaultsToBackslashEscapes() throws {
        let database = try TestDatabase()
        try database.connection.execute("alter database \(identifier: database.name) set standard_conforming_strings = off")
        let folder = try MigrationFolder([
            "1_table.sql": "create table texts (mode text, value text);\n",
            "2_in_transaction.sql": "-- migrate:up\ninsert into texts values ('transaction', 'a\\\\b');\n",
            "3_without.sql": "-- migrate:up transaction:false\ninsert into texts values ('statements', 'a\\\\b');\n",
        ])
        let output = try PgwardenCLI.run(["up", "--database-url", try database.url, "--migrations", folder.path])
        #expect(output.status == 0, "\(output.all)")
        let values = try database.connection.query("select value from texts order by mode").rows.map { $0[0] ?? "" }
        #expect(values == ["a\\\\b", "a\\\\b"], "standard strings: both backslashes kept in both modes")
    }
}
