import Foundation
import Testing
import WardenKit
import TestSupport

/// Folders as other tools write them, and input that must never run as something else.
@Suite struct MigrationFolderFormatTests {
    func parseError(_ text: String) -> MigrationInputError? {
        do {
            _ = try MigrationDirectory.parse(fileName: "1_t.sql", text: text, folder: "m")
            return nil
        } catch {
            return error as? MigrationInputError
        }
    }

    func loadError(_ path: String) -> MigrationInputError? {
        do {
            _ = try MigrationDirectory.load(path)
            return nil
        } catch {
            return error as? MigrationInputError
        }
    }

    @Test(arguments: [
        "-- Migrate:Down", "-- MIGRATE:DOWN", "-- migrate-down", "-- +migrate Down", "--- migrate:up",
        "-- migrate\u{FF1A}down", "-- migrate :down", "-- migrate: down", "--  MIGRATE: up", "-- migrate_down",
        "-- \u{FF4D}igrate:down", "-- migr\u{0430}te:down", "-- +migrate Up", "# -- migrate.down", "-- migrate down",
    ])
    func markerLookAlikesAreErrorsWithTheirLine(_ lookAlike: String) {
        let text = "-- migrate:up\ncreate table a ();\n\(lookAlike)\ndrop table a;\n"
        if lookAlike.hasPrefix("#") {
            #expect(parseError(text) == nil)  // not a comment line: the server reports it
            return
        }
        #expect(parseError(text) == .markerLookAlike(file: "m/1_t.sql", line: 3, text: lookAlike))
        // In a file without markers too.
        #expect(parseError("create table a ();\n\(lookAlike)\ndrop table a;\n")
            == .markerLookAlike(file: "m/1_t.sql", line: 2, text: lookAlike))
    }

    @Test func ordinaryCommentsAndExactMarkersAreFine() {
        #expect(parseError("-- migrate:up\n-- migrates the users\nselect 1;\n--migrate:down\n-- migration notes\nselect 2;")
            == nil)
        #expect(parseError("-- migrate:up transaction:false\nselect 1;\n-- migrate:down   \nselect 2;") == nil)
    }

    /// A `CREATE EVENT TRIGGER` (comments before it and odd spacing read away) is a batch
    /// of its own, which the twin runs as Supabase lets postgres (`EventTriggerLift`);
    /// a function named `event_trigger_x` or a table `event` is not one.
    @Test func anEventTriggerCreationIsABatchOfItsOwn() throws {
        let file = try MigrationDirectory.parse(
            fileName: "1_evt.sql",
            text: "create table event (id int);\n-- next\nCREATE  Event\n TRIGGER t on ddl_command_end execute function f();\n"
                + "create function event_trigger_x() returns int language sql as 'select 1';\n")
        let batches = SectionBatch.batches(of: file.up).map { batch -> String in
            switch batch.payload {
            case .eventTriggerCreation(let item): return "event trigger \(item.index)"
            case .statements(let items): return items.map { String($0.index) }.joined(separator: ",")
            default: return "other"
            }
        }
        #expect(batches == ["0", "event trigger 1", "2"])
    }

    @Test func balancedBeginCommitInAFileWithoutMarkersIsDropped() throws {
        let file = try MigrationDirectory.parse(
            fileName: "1_realtime.sql",
            text: "begin;\n  drop publication if exists supabase_realtime;\n  create publication supabase_realtime;\ncommit;\n"
                + "BEGIN TRANSACTION; select 1; END;\n")
        #expect(file.up.droppedStatements == [0, 3, 4, 6])
        let batches = SectionBatch.batches(of: file.up)
        // The author's BEGIN and COMMIT mark where its transaction-local settings end; the
        // statements between them are sent one per message, with their file offsets.
        let kinds = batches.map { batch -> String in
            switch batch.payload {
            case .authorBegin: return "begin"
            case .authorCommit: return "commit"
            case .statements(let items): return items.map { String($0.index) }.joined(separator: ",")
            case .copy: return "copy"
            case .eventTriggerCreation: return "event trigger"
            }
        }
        #expect(kinds == ["begin", "1,2", "commit", "begin", "5", "commit"])
        let sent = batches.flatMap { batch -> [SectionBatch.Item] in
            if case .statements(let items) = batch.payload { return items } else { return [] }
        }
        #expect(sent.map(\.text) == [
            "drop publication if exists supabase_realtime;", "create publication supabase_realtime;", "select 1;",
        ])
        for item in sent { #expect(file.up.sql.dropFirst(item.fileOffset).hasPrefix(item.text)) }
    }

    @Test func transactionControlPgwardenCannotHonourIsAnError() {
        let cases: [(String, Int, String)] = [
            ("begin;\nselect 1;\nrollback /* to */;\n", 3, "ROLLBACK"),
            ("begin;\nselect 1;\nrollback -- to savepoint\n;\n", 3, "ROLLBACK"),
            ("begin;\nbegin;\nselect 1;\ncommit;\ncommit;\n", 2, "BEGIN"),
            ("select 1;\ncommit;\nselect 2;\n", 2, "COMMIT"),
            ("begin;\nselect 1;\n", 1, "BEGIN"),
            ("commit;\nbegin;\nselect 1;\n", 1, "COMMIT"),
            ("prepare transaction 'x';\n", 1, "two-phase commit"),
        ]
        for (text, line, statement) in cases {
            guard case .transactionControl(_, let foundLine, let foundStatement, _, _)? = parseError(text) else {
                Issue.record("no error for \(text)")
                continue
            }
            #expect(foundLine == line, "\(text)")
            #expect(foundStatement == statement, "\(text)")
        }
        // Behind a comment, in a marked section: still caught.
        guard case .transactionControl(_, 3, "ROLLBACK", "up", _)? = parseError("-- migrate:up\nselect 1;\n/* x */ rollback /* to */;\n")
        else {
            Issue.record("hidden ROLLBACK not caught")
            return
        }
    }

    /// What the Supabase CLI applies in its one implicit transaction: a COMMIT with no
    /// BEGIN open after an enum value a later statement uses (run as written), and a lone
    /// COMMIT ending the file (dropped: the file stays atomic).
    @Test func transactionControlTheSupabaseCLIAppliesIsHonoured() throws {
        let enumValue = try MigrationDirectory.parse(
            fileName: "1_t.sql", text: "alter type color add value 'blue';\ncommit;\ncreate table p (c color default 'blue');\n", folder: "m")
        #expect(enumValue.up.implicitTransactionControl?.line == 2)
        #expect(enumValue.up.implicitTransactionControl?.what.hasPrefix("a COMMIT with no BEGIN open after an enum value") == true)
        #expect(!enumValue.up.options.transaction)
        // Beside it, a COMMIT after a value nothing uses runs as written too; the note names the one honoured.
        let mixed = try MigrationDirectory.parse(
            fileName: "1_t.sql",
            text: "alter type color add value 'red';\ncommit;\nalter type color add value 'blue';\ncommit;\ncreate table p (c color default 'blue');\n",
            folder: "m")
        #expect(mixed.up.implicitTransactionControl?.line == 4)
        let trailing = try MigrationDirectory.parse(fileName: "1_t.sql", text: "select 1;\ncommit;\n", folder: "m")
        #expect(trailing.up.implicitTransactionControl == nil)
        #expect(trailing.up.droppedStatements == [1])
        #expect(trailing.up.options.transaction)
    }

    @Test func statementsThatCannotRunInATransactionBlockAreKnownByTheirKeywords() throws {
        func alone(_ text: String) throws -> String? {
            try MigrationDirectory.parse(fileName: "1_t.sql", text: "select 1;\n" + text, folder: "m").up.implicitTransactionControl?.what
        }
        #expect(try alone("create unique index concurrently x on t (a);") == "CREATE INDEX CONCURRENTLY, which cannot run inside a transaction block")
        #expect(try alone("/* c */ CREATE INDEX CONCURRENTLY IF NOT EXISTS x ON t (a);")?.hasPrefix("CREATE INDEX CONCURRENTLY") == true)
        #expect(try alone("drop index concurrently x;")?.hasPrefix("DROP INDEX CONCURRENTLY") == true)
        #expect(try alone("reindex table concurrently t;")?.hasPrefix("REINDEX CONCURRENTLY") == true)
        #expect(try alone("alter system set work_mem = '8MB';")?.hasPrefix("ALTER SYSTEM") == true)
        #expect(try alone("create index x on t (a);") == nil)
        #expect(try alone("select 'create index concurrently';") == nil)
    }

    @Test func standardConformingStringsOffIsRefusedInBothModes() {
        for marker in ["-- migrate:up\n", "-- migrate:up transaction:false\n", ""] {
            let text = marker + "select 1;\nset standard_conforming_strings = off;\ninsert into t values ('a\\\\b');\n"
            let line = marker.isEmpty ? 2 : 3
            #expect(parseError(text) == .lexingSetting(file: "m/1_t.sql", line: line, setting: "standard_conforming_strings"))
        }
        #expect(parseError("SET standard_conforming_strings = on;\nselect 1;") == nil)
        #expect(parseError("set local standard_conforming_strings to 'off';\nselect 1;") != nil)
    }

    @Test func nulBytesAreErrorsWithTheirLine() throws {
        let folder = try TemporaryFolder()
        try folder.write("1_nul.sql", bytes: Array("select 1;\nselect 2;".utf8) + [0] + Array("\nselect 3;".utf8))
        #expect(loadError(folder.path) == .nulByte(file: "\(folder.path)/1_nul.sql", line: 2))
    }

    @Test func specialFilesAndDanglingLinksAreErrorsAndNeverOpened() throws {
        let folder = try TemporaryFolder()
        try folder.write("1_ok.sql", "select 1;")
        #expect(mkfifo(folder.path + "/2_pipe.sql", 0o644) == 0)
        #expect(loadError(folder.path) == .notARegularFile(file: "\(folder.path)/2_pipe.sql", kind: "FIFO (named pipe)"))
        try FileManager.default.removeItem(atPath: folder.path + "/2_pipe.sql")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/3_gone.sql", withDestinationPath: "nowhere.sql")
        #expect(loadError(folder.path) == .danglingSymlink(file: "\(folder.path)/3_gone.sql", target: "nowhere.sql"))
        try FileManager.default.removeItem(atPath: folder.path + "/3_gone.sql")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/4_null.sql", withDestinationPath: "/dev/null")
        #expect(loadError(folder.path) == .notARegularFile(file: "\(folder.path)/4_null.sql", kind: "character device"))
    }

    @Test func golangMigratePairsAreOneReversibleMigration() throws {
        let folder = try TemporaryFolder()
        try folder.write("000001_init.up.sql", "create table a (id int);\n")
        try folder.write("000001_init.down.sql", "drop table a;\n")
        try folder.write("000002_more.up.sql", "BEGIN;\ncreate table b (id int);\nCOMMIT;\n")
        let directory = try MigrationDirectory.load(folder.path)
        #expect(directory.files.map(\.name) == ["init", "more"])
        #expect(directory.files.first?.down?.sql == "drop table a;\n")
        #expect(directory.files.first?.down?.path == "\(folder.path)/000001_init.down.sql")
        #expect(directory.files.first?.irreversibility == nil)
        #expect(directory.files.last?.down == nil)
        #expect(directory.files.last?.up.droppedStatements == [0, 2])
    }

    @Test func twoFormatsInOneFolderAndOrphanDownFilesAreErrors() throws {
        let folder = try TemporaryFolder()
        try folder.write("1_init.up.sql", "create table a (id int);")
        try folder.write("2_more.sql", "select 1;")
        #expect(loadError(folder.path) == .mixedFormats(
            file: "\(folder.path)/1_init.up.sql", otherFile: "\(folder.path)/2_more.sql"))
        let orphan = try TemporaryFolder()
        try orphan.write("1_init.down.sql", "drop table a;")
        #expect(loadError(orphan.path) == .downWithoutUp(file: "\(orphan.path)/1_init.down.sql"))
        let marked = try TemporaryFolder()
        try marked.write("1_init.up.sql", "-- migrate:up\ncreate table a (id int);")
        #expect(loadError(marked.path) == .markerInPairFile(file: "\(marked.path)/1_init.up.sql", line: 1))
    }

    @Test func copyFromStdinDataIsNotSQL() {
        let sql = "create table t (a int, b text);\nCOPY public.t (a, b) FROM stdin;\n1\tx; drop table t;\n2\t'\n\\.\n"
            + "select count(*) from t;\n"
        let statements = StatementSplitter.split(sql)
        #expect(statements.map(\.kind) == [.other, .copyFromStdin, .other])
        guard let data = statements[1].copyData else {
            Issue.record("no COPY data")
            return
        }
        #expect(SourceText(sql).text(data) == "1\tx; drop table t;\n2\t'\n")
        #expect(statements[2].text == "select count(*) from t;")
        // Without the end marker, the data runs to the end of the text (as in psql).
        #expect(StatementSplitter.split("copy t from stdin;\n1\t2\n").first?.copyData != nil)
        #expect(StatementSplitter.split("copy t (a, b, c, d, e, f, g) from stdin with (format csv);").first?.kind
            == .copyFromStdin)
        #expect(StatementSplitter.split("copy t to stdout;").first?.kind == .other)
    }
}
