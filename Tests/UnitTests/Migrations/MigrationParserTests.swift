import Testing
import WardenKit
import TestSupport

@Suite struct MigrationParserTests {
    func parse(_ text: String, name: String = "20261121000100_test.sql") throws -> MigrationFile {
        try MigrationDirectory.parse(fileName: name, text: text)
    }

    func error(_ text: String, name: String = "20261121000100_test.sql") -> MigrationInputError? {
        do {
            _ = try parse(text, name: name)
            return nil
        } catch let error as MigrationInputError {
            return error
        } catch {
            return nil
        }
    }

    @Test func splitsUpAndDownSectionsWithFileLines() throws {
        let file = try parse("-- a comment\n\n-- migrate:up\ncreate table a (id int);\n-- migrate:down\ndrop table a;\n")
        #expect(file.version.text == "20261121000100")
        #expect(file.name == "test")
        #expect(file.path == "migrations/20261121000100_test.sql")
        #expect(file.up.sql == "create table a (id int);\n")
        #expect(file.up.startLine == 4)
        #expect(file.up.markerLine == 3)
        #expect(file.up.options.transaction)
        #expect(file.down?.sql == "drop table a;\n")
        #expect(file.down?.startLine == 6)
        #expect(file.irreversibility == nil)
    }

    @Test func readsTransactionFalseOnEitherMarker() throws {
        let file = try parse("-- migrate:up transaction:false\ncreate index concurrently i on t (c);\n--migrate:down   transaction:false\ndrop index concurrently i;")
        #expect(file.up.options.transaction == false)
        #expect(file.down?.options.transaction == false)
        #expect(file.down?.sql == "drop index concurrently i;")
    }

    @Test func treatsAFileWithoutMarkersAsUpOnly() throws {
        let file = try parse("create table a (id int);\ncreate index on a (id);\n")
        #expect(file.down == nil)
        #expect(file.up.startLine == 1)
        #expect(file.up.statements.count == 2)
        #expect(file.irreversibility?.contains("up-only") == true)
    }

    @Test func treatsAnEmptyDownSectionAsIrreversible() throws {
        let file = try parse("-- migrate:up\nselect 1;\n-- migrate:down\n-- nothing to undo\n")
        #expect(file.irreversibility?.contains("empty") == true)
    }

    @Test func rejectsADownMarkerBeforeTheUpMarker() {
        #expect(error("-- migrate:down\ndrop table a;\n-- migrate:up\ncreate table a ();")
            == .downBeforeUp(file: "migrations/20261121000100_test.sql", line: 1))
        #expect(error("-- migrate:down\ndrop table a;") == .downBeforeUp(file: "migrations/20261121000100_test.sql", line: 1))
    }

    @Test func rejectsRepeatedMarkers() {
        #expect(error("-- migrate:up\nselect 1;\n-- migrate:up\nselect 2;")
            == .repeatedMarker(file: "migrations/20261121000100_test.sql", line: 3, marker: "up", firstLine: 1))
        #expect(error("-- migrate:up\nselect 1;\n-- migrate:down\nselect 2;\n-- migrate:down\n")
            == .repeatedMarker(file: "migrations/20261121000100_test.sql", line: 5, marker: "down", firstLine: 3))
    }

    @Test func rejectsUnknownMarkersAndOptions() {
        #expect(error("-- migrate:up transaction:maybe\nselect 1;")
            == .unknownMarkerOption(file: "migrations/20261121000100_test.sql", line: 1, option: "transaction:maybe"))
        #expect(error("-- migrate:up fast:true\nselect 1;")
            == .unknownMarkerOption(file: "migrations/20261121000100_test.sql", line: 1, option: "fast:true"))
        #expect(error("-- migrate:up\nselect 1;\n-- migrate:sideways\n")
            == .unknownMarker(file: "migrations/20261121000100_test.sql", line: 3, marker: "-- migrate:sideways"))
    }

    @Test func rejectsSQLBeforeTheUpMarker() {
        #expect(error("-- fine\ncreate table a ();\n-- migrate:up\nselect 1;")
            == .statementsBeforeUpMarker(file: "migrations/20261121000100_test.sql", line: 2))
        // Comments of both kinds are fine before it.
        #expect(error("/* header\n ; */\n-- migrate:up\nselect 1;") == nil)
    }

    @Test func rejectsAnEmptyUpSection() {
        #expect(error("-- migrate:up\n-- todo\n\n-- migrate:down\ndrop table a;")
            == .emptyUpSection(file: "migrations/20261121000100_test.sql", line: 1))
        // Without markers, a comment-only file is a placeholder: an empty migration, as the Supabase CLI applies it.
        #expect(error("\n-- nothing at all\n") == nil)
        #expect(error("-- migrate:up\n-- migrate:down\n") != nil)
    }

    @Test func rejectsTransactionControlInATransactionalSection() {
        #expect(error("-- migrate:up\nbegin;\ncreate table a ();\ncommit;")
            == .transactionControl(file: "migrations/20261121000100_test.sql", line: 2, statement: "BEGIN", direction: "up",
                                 problem: "in a section that pgwarden runs in a transaction of its own"))
        #expect(error("-- migrate:up\nselect 1;\n-- migrate:down\nCOMMIT;")
            == .transactionControl(file: "migrations/20261121000100_test.sql", line: 4, statement: "COMMIT", direction: "down",
                                 problem: "in a section that pgwarden runs in a transaction of its own"))
        // Savepoints are fine, and so is anything in a transaction:false section.
        #expect(error("-- migrate:up\nsavepoint s;\nrollback to savepoint s;\nrelease s;") == nil)
        #expect(error("-- migrate:up transaction:false\nbegin;\nselect 1;\ncommit;") == nil)
    }

    @Test func checksumIgnoresLineEndingsAndTheDownSection() throws {
        let lf = try parse("-- migrate:up\ncreate table a (id int);\n\n-- migrate:down\ndrop table a;\n")
        let crlf = try parse("-- migrate:up\r\ncreate table a (id int);\r\n\r\n-- migrate:down\r\ndrop table a;\r\n")
        let cr = try parse("-- migrate:up\rcreate table a (id int);\r\r-- migrate:down\rdrop table a;\r")
        let otherDown = try parse("-- migrate:up\ncreate table a (id int);\n\n-- migrate:down\ndrop table if exists a;\n")
        let otherUp = try parse("-- migrate:up\ncreate table a (id bigint);\n\n-- migrate:down\ndrop table a;\n")
        #expect(lf.checksum == crlf.checksum)
        #expect(lf.checksum == cr.checksum)
        #expect(lf.checksum == otherDown.checksum)
        #expect(lf.checksum != otherUp.checksum)
        #expect(lf.checksum.count == 64)
        #expect(MigrationChecksum.of("a\r\nb") == MigrationChecksum.of("a\nb"))
        // SHA-256 of "abc", a published test vector.
        #expect(MigrationChecksum.of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
