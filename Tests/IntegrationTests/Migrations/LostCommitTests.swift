import Foundation
import Testing
import WardenKit
import TestSupport

/// The connection is lost after the server committed but before pgwarden heard it:
/// pgwarden reconnects, reads the history, and says what actually happened.
@Suite struct LostCommitTests {
    func proxyURL(_ proxy: CommitDroppingProxy, _ database: TestDatabase) throws -> String {
        try "postgresql://\(TestCluster.cluster.superuser)@/\(database.name)?host=\(proxy.directory)&port=\(proxy.port)"
    }

    /// With a second migration, the first COMMIT travels with the second's BEGIN and
    /// statements: lost there, the first is applied (the server committed it), the
    /// second never committed, and the report says exactly that.
    @Test(arguments: [1, 2])
    func upSaysTheMigrationIsAppliedWhenItsCommitWentThrough(migrations: Int) throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_first.sql": "-- migrate:up\ncreate table first (id int);\n-- migrate:down\ndrop table first;\n",
            "2_second.sql": "-- migrate:up\ncreate table second (id int);\n-- migrate:down\ndrop table second;\n",
        ].filter { $0.key.hasPrefix("1") || migrations == 2 })
        let proxy = try CommitDroppingProxy(upstreamDirectory: try TestCluster.cluster.socketDirectory, port: TestCluster.cluster.port)
        defer { proxy.stop() }
        let output = try PgwardenCLI.run(["up", "--database-url", try proxyURL(proxy, database), "--migrations", folder.path])
        #expect(proxy.hasDropped)
        #expect(output.status == 1, "\(output.all)")
        #expect(output.standardError.contains(
            "the connection was lost at COMMIT; a new connection read the history: migration 1 is applied"), "\(output.all)")
        #expect(!output.standardError.contains("nothing of it remains"))
        #expect(!output.standardOutput.contains("second"), "\(output.all)")
        #expect(try database.historyVersions() == ["1"])
        #expect(try database.exists("first"))
        #expect(try !database.exists("second"))
    }

    @Test func downSaysTheRollbackIsDoneWhenItsCommitWentThrough() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder([
            "1_first.sql": "-- migrate:up\ncreate table first (id int);\n-- migrate:down\ndrop table first;\n",
        ])
        #expect(try PgwardenCLI.run(["up", "--database-url", try database.url, "--migrations", folder.path]).status == 0)
        let proxy = try CommitDroppingProxy(upstreamDirectory: try TestCluster.cluster.socketDirectory, port: TestCluster.cluster.port)
        defer { proxy.stop() }
        let output = try PgwardenCLI.run(["down", "--database-url", try proxyURL(proxy, database), "--migrations", folder.path])
        #expect(output.status == 1, "\(output.all)")
        #expect(output.standardError.contains("a new connection read the history: the rollback of 1 is done"), "\(output.all)")
        #expect(!output.standardError.contains("it stays applied"))
        #expect(try database.historyVersions() == [])
        #expect(try !database.exists("first"))
    }

    @Test func whenTheServerCannotBeReachedAgainTheOutcomeIsUnknownWithWhatToRun() throws {
        let database = try TestDatabase()
        let folder = try MigrationFolder(["1_first.sql": "create table first (id int);\n"])
        let proxy = try CommitDroppingProxy(
            upstreamDirectory: try TestCluster.cluster.socketDirectory, port: TestCluster.cluster.port, refuseAfterDrop: true)
        defer { proxy.stop() }
        let output = try PgwardenCLI.run(["up", "--database-url", try proxyURL(proxy, database), "--migrations", folder.path])
        #expect(output.status == 1, "\(output.all)")
        #expect(output.standardError.contains("whether migration 1 was applied is unknown"), "\(output.all)")
        #expect(output.standardError.contains("run `pgwarden status`"))
    }
}
