import Foundation
import Testing
import WardenKit
import TestSupport

/// Guarantee 4: `transaction:false` runs outside a transaction; a failure part-way is
/// shown as failed, with what to check and how to resolve it.
@Suite struct NonTransactionalTests {
    @Test func failsPartWayVisiblyAndIsResolved() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_items.sql": "-- migrate:up\ncreate table items (id int, label text);\ninsert into items select g, 'x' from generate_series(1, 100) g;\n",
            "2_concurrent.sql": """
                -- migrate:up transaction:false
                create index concurrently items_id on items (id);
                create index concurrently items_missing on items (no_such_column);
                create table never (id int);
                -- migrate:down transaction:false
                drop index concurrently items_id;
                """,
        ])
        let arguments = ["--database-url", try database.url, "--migrations", folder.path]
        let output = try PgwardenCLI.run(["up"] + arguments)
        #expect(output.status == 1)
        let report = output.standardError
        #expect(report.hasPrefix("pgwarden: \(folder.path)/2_concurrent.sql:3: column \"no_such_column\" does not exist (SQLSTATE 42703)"))
        #expect(report.contains("ran without a transaction: 1 statement before the failing one is committed"))
        #expect(report.contains("pgwarden resolve 2 --applied") && report.contains("pgwarden resolve 2 --rolled-back"))
        // CREATE INDEX CONCURRENTLY cannot run in a transaction: it ran, so none was open.
        #expect(try database.exists("items_id"))
        #expect(try !database.exists("never"))
        #expect(try database.state("2") == "failed")

        let status = try PgwardenCLI.run(["status", "--format", "json"] + arguments)
        #expect(status.status == 3)
        let document = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        let entries = document?["migrations"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["state"] as? String } == ["applied", "failed"])
        #expect((entries.last?["error"] as? String)?.contains("no_such_column") == true)

        let refused = try PgwardenCLI.run(["up"] + arguments)
        #expect(refused.status == 3 && refused.standardError.contains("pgwarden resolve 2"))

        // The user fixes the file, undoes what ran, and tells pgwarden.
        try folder.write("2_concurrent.sql", """
            -- migrate:up transaction:false
            create index concurrently items_id on items (id);
            create index concurrently items_label on items (label);
            -- migrate:down transaction:false
            drop index concurrently items_label;
            drop index concurrently items_id;
            """)
        try database.connection.execute("drop index items_id")
        let resolved = try PgwardenCLI.run(["resolve", "2", "--rolled-back"] + arguments)
        #expect(resolved.status == 0, "\(resolved.all)")
        #expect(try database.historyVersions() == ["1"])
        let rerun = try PgwardenCLI.run(["up"] + arguments)
        #expect(rerun.status == 0, "\(rerun.all)")
        #expect(try database.state("2") == "applied")
        #expect(try database.exists("items_label"))
        #expect(try PgwardenCLI.run(["down"] + arguments).status == 0)
        #expect(try !database.exists("items_label") && !database.exists("items_id"))
        #expect(try database.historyVersions() == ["1"])
    }

    @Test func resolveAppliedMarksItApplied() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_half.sql": "-- migrate:up transaction:false\ncreate table half (id int);\nselect 1/0;\n",
        ])
        let arguments = ["--database-url", try database.url, "--migrations", folder.path]
        #expect(try PgwardenCLI.run(["up"] + arguments).status == 1)
        let notFailed = try PgwardenCLI.run(["resolve", "7", "--applied"] + arguments)
        #expect(notFailed.status == 65)
        let resolved = try PgwardenCLI.run(["resolve", "1", "--applied"] + arguments)
        #expect(resolved.status == 0)
        #expect(try database.state("1") == "applied")
        #expect(try PgwardenCLI.run(["status"] + arguments).status == 0)
        let again = try PgwardenCLI.run(["resolve", "1", "--applied"] + arguments)
        #expect(again.status == 65 && again.standardError.contains("not failed"))
        let usage = try PgwardenCLI.run(["resolve", "1"] + arguments)
        #expect(usage.status == 64)
    }
}
