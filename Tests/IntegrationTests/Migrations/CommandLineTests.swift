import Foundation
import Testing
import WardenKit
import TestSupport

/// The commands as a user runs them: output, exit status, help.
@Suite struct CommandLineTests {
    /// Shell completion offers folders for folder options and YAML files for the plan.
    @Test func shellCompletionKnowsWhichPathsAreFolders() throws {
        let output = try PgwardenCLI.run(["--generate-completion-script", "bash"])
        #expect(output.status == 0, "\(output.all)")
        let script = output.standardOutput
        for option in ["--migrations", "--seeds"] {
            #expect(script.contains("'\(option)')\n        __pgwarden_add_completions -d"), "\(option) completes folders")
        }
        #expect(script.contains("'--plan')\n        __pgwarden_add_completions -o plusdirs -fX '!*.@(yml|yaml)'"))
    }

    @Test func newWritesATimestampedFileThatUpRefusesUntilFilledIn() throws {
        let folder = try MigrationFolder()
        let target = folder.path + "/migrations"
        let output = try PgwardenCLI.run(["new", "Create listing", "--migrations", target])
        #expect(output.status == 0, "\(output.all)")
        let path = output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(name.range(of: #"^20\d{12}_create_listing\.sql$"#, options: .regularExpression) != nil, "\(name)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("-- migrate:up") && text.contains("-- migrate:down"))
        let database = try TestDatabase()
        let up = try PgwardenCLI.run(["up", "--database-url", try database.url, "--migrations", target])
        #expect(up.status == 65 && up.standardError.contains("\(name):1: the up section is empty"))
        #expect(try PgwardenCLI.run(["new", "!!!", "--migrations", target]).status == 64)
    }

    @Test func statusExitsZeroTwoOrThreeAndSpeaksJSON() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_a.sql": "-- migrate:up\ncreate table a (id int);\n-- migrate:down\ndrop table a;\n",
            "2_b.sql": "-- migrate:up\ncreate table b (id int);\n-- migrate:down\ndrop table b;\n",
        ])
        let arguments = ["--database-url", try database.url, "--migrations", folder.path]
        let pending = try PgwardenCLI.run(["status"] + arguments)
        #expect(pending.status == 2)
        #expect(pending.standardOutput.hasSuffix("2 migrations: 2 pending\n"))
        #expect(try database.historyVersions() == nil, "status must not create the history table")

        let up = try PgwardenCLI.run(["up"] + arguments)
        #expect(up.status == 0)
        let lines = up.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].range(of: #"^applied 1 a \((<1|\d+) ms\)$"#, options: .regularExpression) != nil, "\(lines[0])")
        #expect(lines[2].hasPrefix("applied 2 migrations in "))
        #expect(!up.standardOutput.contains("\u{1B}"), "no terminal codes when output is not a terminal")

        let applied = try PgwardenCLI.run(["status", "--format", "json"] + arguments)
        #expect(applied.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(applied.standardOutput.utf8)) as? [String: Any])
        let entries = try #require(document["migrations"] as? [[String: Any]])
        #expect(entries.map { $0["version"] as? String } == ["1", "2"])
        #expect(entries.allSatisfy { $0["state"] as? String == "applied" && $0["applied_at"] is String && $0["duration_ms"] is Int })
        #expect((document["summary"] as? [String: Int])?["applied"] == 2)

        try folder.write("1_a.sql", "-- migrate:up\ncreate table a (id bigint);\n-- migrate:down\ndrop table a;\n")
        let modified = try PgwardenCLI.run(["status"] + arguments)
        #expect(modified.status == 3 && modified.standardOutput.contains("modified"))
        let refused = try PgwardenCLI.run(["up"] + arguments)
        #expect(refused.status == 3 && refused.standardError.contains("1_a.sql was modified after it was applied"))
        #expect(refused.standardError.contains("run with --allow-drift"), "the CLI's hint: \(refused.standardError)")
        try folder.remove("2_b.sql")
        let missing = try PgwardenCLI.run(["status"] + arguments)
        #expect(missing.status == 3 && missing.standardOutput.contains("missing"))
    }

    @Test func crlfCheckoutsAreNotModified() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(["1_a.sql": "-- migrate:up\ncreate table a (id int);\n\n-- migrate:down\ndrop table a;\n"])
        let arguments = ["--database-url", try database.url, "--migrations", folder.path]
        #expect(try PgwardenCLI.run(["up"] + arguments).status == 0)
        try folder.write("1_a.sql", "-- migrate:up\r\ncreate table a (id int);\r\n\r\n-- migrate:down\r\ndrop table a;\r\n")
        #expect(try PgwardenCLI.run(["status"] + arguments).status == 0)
    }

    @Test func upToDownToAndRedo() throws {
        let database = try TestDatabase()
        var files: [String: String] = [:]
        for number in 1...4 {
            files["\(number)_t\(number).sql"] = "-- migrate:up\ncreate table t\(number) (id int);\n-- migrate:down\ndrop table t\(number);\n"
        }
        let folder = try MigrationFolder(files)
        let arguments = ["--database-url", try database.url, "--migrations", folder.path]
        let dryRun = try PgwardenCLI.run(["up", "--to", "3", "--dry-run"] + arguments)
        #expect(dryRun.standardOutput == "would apply 1 t1\nwould apply 2 t2\nwould apply 3 t3\nwould apply 3 migrations (dry run: nothing was changed)\n")
        #expect(try database.historyVersions() == nil)
        #expect(try PgwardenCLI.run(["up", "--to", "3"] + arguments).status == 0)
        #expect(try database.historyVersions() == ["1", "2", "3"])
        #expect(try PgwardenCLI.run(["down", "--to", "1"] + arguments).status == 0)
        #expect(try database.historyVersions() == ["1"])
        #expect(try PgwardenCLI.run(["up"] + arguments).status == 0)
        try folder.write("4_t4.sql", "-- migrate:up\ncreate table t4 (id int, note text);\n-- migrate:down\ndrop table t4;\n")
        let redo = try PgwardenCLI.run(["redo"] + arguments)
        #expect(redo.status == 0)
        #expect(redo.standardOutput.contains("rolled back 4 t4") && redo.standardOutput.contains("applied 4 t4"))
        #expect(try database.scalar("select count(*) from information_schema.columns where table_name = 't4'") == "2")
        #expect(try PgwardenCLI.run(["status"] + arguments).status == 0)
        #expect(try PgwardenCLI.run(["down", "--steps", "2", "--all"] + arguments).status == 64)
        #expect(try PgwardenCLI.run(["down", "--all"] + arguments).status == 0)
        #expect(try database.historyVersions() == [])
        let nothing = try PgwardenCLI.run(["down"] + arguments)
        #expect(nothing.status == 0 && nothing.standardOutput.contains("nothing to do"))
    }

    @Test func migrationsDoNotLeakSessionSettingsOrRoles() throws {
        let database = try TestDatabase()
        let role = "owner_\(UUID().uuidString.prefix(8).lowercased())"
        try database.connection.execute("create role \(identifier: role); grant create on schema public to \(identifier: role)")
        let folder = try MigrationFolder([
            "1_settings.sql": "-- migrate:up\nset search_path = nowhere;\nset role \(role);\ncreate table public.owned ();\n",
            "2_after.sql": "-- migrate:up\ncreate table after_settings ();\n",
        ])
        #expect(try PgwardenCLI.run(["up", "--database-url", try database.url, "--migrations", folder.path]).status == 0)
        #expect(try database.scalar("select tableowner from pg_tables where tablename = 'owned'") == role)
        #expect(try database.scalar("select schemaname from pg_tables where tablename = 'after_settings'") == "public")
        #expect(try database.scalar("select string_agg(distinct applied_by, ',') from pgwarden.schema_migrations") == TestCluster.cluster.superuser)
    }

    /// The reset after the last migration is not left pending: the run's connection
    /// ends with the settings and role it started with.
    @Test func aRunLeavesItsConnectionAsItFoundIt() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_first.sql": "-- migrate:up\nset search_path = nowhere;\nset statement_timeout = '7s';\ncreate table public.first ();\n",
            "2_last.sql": "-- migrate:up\nset search_path = elsewhere;\nset work_mem = '7MB';\ncreate table public.last ();\n",
        ])
        let migrator = try folder.migrator(database)
        let connection = try #require((migrator.session as? PostgresMigrationSession)?.connection)
        let before = try connection.query("select current_setting('search_path'), current_setting('work_mem'), current_setting('statement_timeout'), current_user::text").rows
        let run = try migrator.up()
        #expect(run.steps.count == 2)
        // The summary's time is the run's wall time, round trips included.
        let elapsed = try #require(run.elapsed)
        #expect(elapsed >= run.steps.compactMap(\.duration).reduce(.zero, +))
        #expect(run.summary.hasSuffix(" in \(MigrationRun.duration(elapsed))"))
        let after = try connection.query("select current_setting('search_path'), current_setting('work_mem'), current_setting('statement_timeout'), current_user::text").rows
        #expect(after == before)
        #expect(connection.transactionStatus == .idle)
    }

    @Test func everyCommandHasHelp() throws {
        for command in ["new", "status", "up", "down", "redo", "resolve"] {
            let output = try PgwardenCLI.run([command, "--help"])
            #expect(output.status == 0)
            #expect(output.standardOutput.contains("USAGE: pgwarden \(command)"))
            if command != "new" { #expect(output.standardOutput.contains("Exit status"), "\(command)") }
        }
        let root = try PgwardenCLI.run(["--help"])
        for command in ["new", "status", "up", "down", "redo", "resolve"] { #expect(root.standardOutput.contains(command)) }
    }
}
