import Foundation
import Testing
import WardenKit
import TestSupport

/// Bad input: a one-line error naming the problem and the file, a non-zero exit, and
/// nothing changed (no history table, no object of the valid migrations).
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let files: [String: [UInt8]]
        /// Text the one-line error must contain (besides the file name).
        let problem: String
        /// The file the error must name.
        let file: String
        var testDescription: String { label }

        init(_ label: String, _ files: [String: String], problem: String, file: String) {
            self.label = label
            self.files = files.mapValues { Array($0.utf8) }
            self.problem = problem
            self.file = file
        }

        init(_ label: String, bytes: [String: [UInt8]], problem: String, file: String) {
            self.label = label
            self.files = bytes
            self.problem = problem
            self.file = file
        }
    }

    /// A valid migration every case also holds: it must not be applied.
    static let valid = ["1_valid.sql": "-- migrate:up\ncreate table valid_table (id int);\n-- migrate:down\ndrop table valid_table;\n"]

    static let cases: [Case] = [
        Case("a mistyped down marker", ["2_x.sql": "-- migrate:up\ncreate table x ();\n-- Migrate:Down\ndrop table valid_table;\n"],
             problem: ":3: `-- Migrate:Down` looks like a section marker but is not one", file: "2_x.sql"),
        Case("an sql-migrate marker", ["2_x.sql": "-- +migrate Up\ncreate table x ();\n-- +migrate Down\ndrop table x;\n"],
             problem: ":1: `-- +migrate Up` looks like a section marker", file: "2_x.sql"),
        Case("a full-width colon in a marker", ["2_x.sql": "-- migrate:up\ncreate table x ();\n-- migrate\u{FF1A}down\ndrop table x;\n"],
             problem: ":3: `-- migrate\u{FF1A}down` looks like a section marker", file: "2_x.sql"),
        Case("a NUL byte",
             bytes: ["2_nul.sql": Array("-- migrate:up\ninsert into valid_table values (1);".utf8) + [0] + Array("\ndrop table valid_table;\n".utf8)],
             problem: ":2: contains a NUL byte", file: "2_nul.sql"),
        Case("a ROLLBACK behind a comment", ["2_x.sql": "-- migrate:up\ncreate table x ();\nrollback /* to */;\n"],
             problem: ":3: `ROLLBACK` in a section that pgwarden runs in a transaction", file: "2_x.sql"),
        Case("a ROLLBACK in a file without markers", ["2_x.sql": "begin;\ncreate table x ();\nrollback -- to savepoint\n;\n"],
             problem: ":3: `ROLLBACK`: ROLLBACK would undo part of the migration", file: "2_x.sql"),
        Case("a nested BEGIN", ["2_x.sql": "begin;\nbegin;\ncreate table x ();\ncommit;\ncommit;\n"],
             problem: ":2: `BEGIN`: a BEGIN inside the BEGIN of line 1", file: "2_x.sql"),
        Case("a BEGIN without COMMIT", ["2_x.sql": "begin;\ncreate table x ();\n"],
             problem: ":1: `BEGIN`: a BEGIN without a COMMIT after it", file: "2_x.sql"),
        Case("standard_conforming_strings off", ["2_x.sql": "-- migrate:up transaction:false\nset standard_conforming_strings = off;\nselect 'a\\\\b';\n"],
             problem: ":2: migrations may not change standard_conforming_strings", file: "2_x.sql"),
        Case("golang-migrate pairs next to single files", ["2_x.up.sql": "create table x ();", "2_x.down.sql": "drop table x;"],
             problem: "golang-migrate .up.sql/.down.sql pairs and single-file migrations", file: "2_x.down.sql"),
        Case("two files with one version", ["02_a.sql": "select 1;", "2_b.sql": "select 2;"],
             problem: "version 2 is also used by", file: "2_b.sql"),
        Case("a down marker before the up marker", ["2_x.sql": "-- migrate:down\ndrop table x;\n-- migrate:up\ncreate table x ();\n"],
             problem: ":1: `-- migrate:down` comes before `-- migrate:up`", file: "2_x.sql"),
        Case("a repeated marker", ["2_x.sql": "-- migrate:up\ncreate table x ();\n-- migrate:up\ncreate table y ();\n"],
             problem: ":3: `-- migrate:up` appears again (first on line 1)", file: "2_x.sql"),
        Case("an unknown marker option", ["2_x.sql": "-- migrate:up transaction:off\ncreate table x ();\n"],
             problem: ":1: unknown marker option `transaction:off`", file: "2_x.sql"),
        Case("an unknown marker", ["2_x.sql": "-- migrate:up\ncreate table x ();\n-- migrate:undo\ndrop table x;\n"],
             problem: ":3: unknown marker `-- migrate:undo`", file: "2_x.sql"),
        Case("an empty up section", ["2_x.sql": "-- migrate:up\n-- TODO\n\n-- migrate:down\ndrop table x;\n"],
             problem: ":1: the up section is empty", file: "2_x.sql"),
        Case("SQL before the up marker", ["2_x.sql": "create table x ();\n-- migrate:up\nselect 1;\n"],
             problem: ":1: SQL before the `-- migrate:up` marker", file: "2_x.sql"),
        Case("transaction control in a transactional section", ["2_x.sql": "-- migrate:up\nbegin;\ncreate table x ();\ncommit;\n"],
             problem: ":2: `BEGIN` in a section that pgwarden runs in a transaction", file: "2_x.sql"),
        Case("a file that is not UTF-8",
             bytes: ["2_latin1.sql": Array("-- migrate:up\ninsert into valid_table values (1);\n-- caf".utf8) + [0xE9, 0x0A]],
             problem: ":3: not valid UTF-8", file: "2_latin1.sql"),
    ]

    func assertNothingChanged(_ database: TestDatabase) throws {
        #expect(try database.historyVersions() == nil, "the history table was created")
        #expect(try !database.exists("valid_table"), "a migration ran")
        #expect(try database.scalar("select count(*) from pg_namespace where nspname = 'pgwarden'") == "0")
    }

    func assertOneLineError(_ output: PgwardenCLI.Output, status: Int32, mentions: [String]) {
        #expect(output.status == status, "\(output.all)")
        #expect(output.standardOutput.isEmpty)
        let text = output.standardError
        #expect(text.hasPrefix("pgwarden: ") && text.hasSuffix("\n"), "\(text)")
        #expect(text.dropLast().contains("\n") == false, "not one line: \(text)")
        for mention in mentions { #expect(text.contains(mention), "\(mention) not in \(text)") }
    }

    @Test(arguments: cases)
    func badMigrationFilesAreRejectedBeforeAnythingRuns(_ badCase: Case) throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(Self.valid)
        for (name, bytes) in badCase.files { try folder.write(name, bytes: bytes) }
        for command in [["up"], ["status"], ["down", "--all"]] {
            let output = try PgwardenCLI.run(command + ["--database-url", try database.url, "--migrations", folder.path])
            assertOneLineError(output, status: 65, mentions: ["\(folder.path)/\(badCase.file)", badCase.problem])
        }
        try assertNothingChanged(database)
    }

    @Test func aMissingFolderOrAFileInsteadOfAFolder() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(Self.valid)
        let missing = try PgwardenCLI.run(["up", "--database-url", try database.url, "--migrations", folder.path + "/nope"])
        assertOneLineError(missing, status: 65, mentions: ["migrations folder \(folder.path)/nope does not exist"])
        let file = try PgwardenCLI.run(["up", "--database-url", try database.url, "--migrations", folder.path + "/1_valid.sql"])
        assertOneLineError(file, status: 65, mentions: ["\(folder.path)/1_valid.sql is not a folder"])
        // The default folder is ./migrations, relative to the working directory.
        let here = try PgwardenCLI.run(["up", "--database-url", try database.url], directory: folder.path)
        assertOneLineError(here, status: 65, mentions: ["migrations folder ./migrations does not exist"])
        try assertNothingChanged(database)
    }

    @Test func anUnreadableFolderOrFile() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(Self.valid)
        let locked = folder.path + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        chmod(locked, 0o000)
        let url = try database.url
        let unreadableFolder = try PgwardenCLI.run(["up", "--database-url", url, "--migrations", locked], unprivileged: true)
        assertOneLineError(unreadableFolder, status: 65, mentions: ["migrations folder \(locked) cannot be read: Permission denied"])
        chmod(locked, 0o755)
        try folder.write("2_secret.sql", "select 1;")
        chmod(folder.path + "/2_secret.sql", 0o000)
        chmod(folder.path, 0o755)
        let unreadableFile = try PgwardenCLI.run(["up", "--database-url", url, "--migrations", folder.path], unprivileged: true)
        assertOneLineError(unreadableFile, status: 65, mentions: ["\(folder.path)/2_secret.sql: cannot be read: Permission denied"])
        try assertNothingChanged(database)
    }

    @Test func aVersionThatDoesNotExist() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(Self.valid)
        for command in [["up", "--to", "42"], ["down", "--to", "42"]] {
            let output = try PgwardenCLI.run(command + ["--database-url", try database.url, "--migrations", folder.path])
            assertOneLineError(output, status: 65, mentions: ["no migration has version 42", folder.path])
        }
        let notDigits = try PgwardenCLI.run(["up", "--to", "latest", "--database-url", try database.url, "--migrations", folder.path])
        // Parsed by the argument parser (MigrationVersion is ExpressibleByArgument): its usage error.
        #expect(notDigits.status == 64 && notDigits.standardError.contains("The value 'latest' is invalid for '--to <VERSION>'"))
        #expect(notDigits.standardError.contains("digits, e.g. 20261121000400"))
        try assertNothingChanged(database)
    }

    @Test func anUnreachableServer() throws {
        let folder = try MigrationFolder(Self.valid)
        let url = "postgresql://someone:hunter2-secret@/app?host=/nonexistent-pgwarden-socket&port=5432"
        for command in [["up"], ["status"]] {
            let output = try PgwardenCLI.run(command + ["--database-url", url, "--migrations", folder.path])
            assertOneLineError(output, status: 69, mentions: ["could not connect to", "/nonexistent-pgwarden-socket"])
            #expect(!output.all.contains("hunter2"))
        }
        // DATABASE_URL is used when --database-url is absent.
        let fromEnvironment = try PgwardenCLI.run(["up", "--migrations", folder.path], environment: ["DATABASE_URL": url])
        assertOneLineError(fromEnvironment, status: 69, mentions: ["/nonexistent-pgwarden-socket"])
        #expect(!fromEnvironment.all.contains("hunter2"))
    }

    /// `test` opens its connection while it reads its input (issue 18), but reports as
    /// before: a wrong plan file first, whatever the server; then the connection's error.
    @Test func testReportsItsInputBeforeTheServer() throws {
        let plans = try MigrationFolder([
            "bad-plan.yml": "personas: [\n", "plan.yml": "personas:\n  anon: { role: anon }\nrelations: {}\n",
        ])
        let url = "postgresql://someone:hunter2-secret@/app?host=/nonexistent-pgwarden-socket&port=5432"
        let wrongPlan = try PgwardenCLI.run(["test", "--database-url", url, "--plan", plans.path + "/bad-plan.yml"])
        assertOneLineError(wrongPlan, status: 65, mentions: ["bad-plan.yml:2", "invalid YAML"])
        let unreachable = try PgwardenCLI.run(["test", "--database-url", url, "--plan", plans.path + "/plan.yml"])
        assertOneLineError(unreachable, status: 69, mentions: ["could not connect to", "/nonexistent-pgwarden-socket"])
        #expect(!unreachable.all.contains("hunter2"))
    }

    @Test func aWrongPasswordIsNeverPrinted() throws {
        let database = try TestDatabase()
        let cluster = try TestCluster.cluster
        let role = "pw_\(UUID().uuidString.prefix(8).lowercased())"
        try database.connection.execute("create role \(identifier: role) login password \(literal: "the-right-one-" + role)")
        let hba = cluster.directory.appendingPathComponent("data/pg_hba.conf")
        let rules = try String(contentsOf: hba, encoding: .utf8)
        try ("local all \(role) scram-sha-256\n" + rules).write(to: hba, atomically: false, encoding: .utf8)
        try database.connection.query("select pg_reload_conf()")
        let wrong = "Wr0ng-Pa55-\(UUID().uuidString.prefix(6))"
        let url = "postgresql://\(role):\(wrong)@/\(database.name)?host=\(cluster.socketDirectory)&port=\(cluster.port)"
        // Wait until the new rule is in force (before it, trust lets anyone in).
        let refused = PgwardenCLI.waitFor(seconds: 10) { () -> Bool? in
            (try? Connection(ConnectionSettings(url))) == nil ? true : nil
        }
        #expect(refused == true, "pg_hba.conf change not in force")
        let folder = try MigrationFolder(Self.valid)
        let output = try PgwardenCLI.run(["up", "--database-url", url, "--migrations", folder.path])
        assertOneLineError(output, status: 69, mentions: ["password authentication failed for user \"\(role)\"", "****"])
        #expect(!output.all.contains(wrong))
        let viaEnvironment = try PgwardenCLI.run(
            ["status", "--migrations", folder.path],
            environment: ["PGHOST": cluster.socketDirectory, "PGUSER": role, "PGDATABASE": database.name, "PGPASSWORD": wrong])
        assertOneLineError(viaEnvironment, status: 69, mentions: ["password authentication failed"])
        #expect(!viaEnvironment.all.contains(wrong))
        try assertNothingChanged(database)
    }
}
