import Foundation
import Testing
import WardenKit
import TestSupport

@Suite struct LocalClusterTests {
    @Test func startsServesAndCleansUp() throws {
        let cluster = try LocalCluster.start()
        let directory = cluster.directory.path
        #expect(FileManager.default.fileExists(atPath: "\(directory)/.s.PGSQL.5432"))
        let connection = try Connection(cluster.settings())
        #expect(try connection.query("show listen_addresses").scalar == "")
        #expect(try connection.query("show fsync").scalar == "off")
        connection.close()
        // The URL form reaches the same server.
        let viaURL = try Connection(ConnectionSettings(cluster.url()))
        // As on Supabase, supabase_admin is the superuser; postgres arrives with bootstrap.
        #expect(try viaURL.query("select current_user, usesuper from pg_user where usename = current_user").rows
                == [["supabase_admin", "t"]])
        viaURL.close()
        cluster.stop()
        #expect(!cluster.isRunning)
        #expect(!FileManager.default.fileExists(atPath: directory))
        cluster.stop()  // idempotent
    }

    @Test func createsIsolatedDatabases() throws {
        let first = try Connection(TestCluster.newDatabase())
        let second = try Connection(TestCluster.newDatabase())
        try first.execute("create table only_here (id int)")
        #expect(try second.query("select to_regclass('only_here')::text").scalar == nil)
    }
}
