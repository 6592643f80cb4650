import Foundation
import Testing
import WardenKit
import TestSupport

/// A migration larger than one batch (4 MB) goes to the server in pieces inside one
/// transaction: all of it or nothing, and an error in a later piece still names its
/// file line.
@Suite struct LargeMigrationTests {
    static func largeMigration(rows: Int, brokenRow: Int?) -> String {
        var text = "-- migrate:up\ncreate table big (id int, payload text);\n"
        text.reserveCapacity(rows * 110)
        for row in 0..<rows {
            let table = row == brokenRow ? "no_such_table" : "big"
            text += "insert into \(table) values (\(row), 'payload \(row): lorem ipsum dolor sit amet; consectetur adipiscing');\n"
        }
        return text + "-- migrate:down\ndrop table big;\n"
    }

    @Test func aSixMegabyteMigrationAppliesInPiecesAndFailsAtTheRightLine() throws {
        let database = try TestDatabase()
        let rows = 60_000
        let broken = try MigrationFolder(["1_big.sql": Self.largeMigration(rows: rows, brokenRow: rows - 10)])
        let arguments = ["--database-url", try database.url]
        let failed = try PgwardenCLI.run(["up", "--migrations", broken.path] + arguments)
        #expect(failed.status == 1)
        // Line 1 is the marker, line 2 the create table, row N is on line N + 3.
        #expect(failed.standardError.contains("\(broken.path)/1_big.sql:\(rows - 10 + 3):13: relation \"no_such_table\" does not exist"),
                "\(failed.standardError.prefix(400))")
        #expect(failed.standardError.contains("nothing of it remains"))
        #expect(try !database.exists("big"))

        let good = try MigrationFolder(["1_big.sql": Self.largeMigration(rows: rows, brokenRow: nil)])
        let applied = try PgwardenCLI.run(["up", "--migrations", good.path] + arguments)
        #expect(applied.status == 0, "\(applied.all.prefix(400))")
        #expect(try database.scalar("select count(*) from big") == String(rows))
    }
}
