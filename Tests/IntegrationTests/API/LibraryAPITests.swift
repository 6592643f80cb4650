import Foundation
import Testing
import WardenKit
import TestSupport

/// The public API as a Swift team uses it: one import, the connection as an argument.
@Suite struct LibraryAPITests {
    @Test func provisionThenProveOnAScratchDatabase() async throws {
        let database = try ScratchDatabase(label: "api")
        let connection = try database.connect()
        let project = Project(directory: ElectricRide.root)
        let summary = try await project.provision(connectingTo: database.settings)
        #expect(summary.migrations.steps.count == 15)
        #expect(summary.seedFiles.count == 3)
        #expect(try connection.query("select current_user, usesuper from pg_user where usename = current_user").rows == [["postgres", "f"]])
        let report = try await project.accessPlan().prove(connectingTo: database.settings)
        #expect(try await project.migrations().status(connectingTo: database.settings).outcome == .upToDate)
        #expect(report.passed, "\(report.failures)")
        try database.drop()
        #expect(throws: PGError.self) { try database.connect() }
    }

    @Test func migrationsRefuseAConnectionInsideATransaction() throws {
        let database = try ScratchDatabase(label: "api")
        let connection = try database.connect()
        let migrations = try Project(directory: ElectricRide.root).migrations()
        try connection.execute("begin")
        let misuse = #expect(throws: APIMisuse.self) { try migrations.up(on: connection) }
        #expect(misuse?.category == .misuse)
        try connection.execute("rollback")
        try migrations.up(on: connection)
        #expect(try migrations.status(on: connection).entries.allSatisfy { $0.state == .applied })
    }

    @Test func inTransactionEndsAsTheBodySays() throws {
        let database = try ScratchDatabase(label: "api")
        let connection = try database.connect()
        try connection.execute("create table t (n int)")
        try connection.inTransaction {
            try connection.query("insert into t values (\(1))")
            return .rollback
        }
        try connection.inTransaction {
            try connection.query("insert into t values (\(2))")
            return .commit
        }
        #expect(try connection.query("select n from t").rows == [["2"]])
        try connection.execute("begin")
        #expect(throws: APIMisuse("a transaction is already open on this connection: nest with savepoint or rolledBack")) {
            try connection.inTransaction { .commit }
        }
        try connection.execute("rollback")
    }

    @Test func rolledBackKeepsTheCallersOwnWork() throws {
        let database = try ScratchDatabase(label: "api")
        let connection = try database.connect()
        try connection.execute("create table t (n int)")
        try connection.rolledBack { try connection.query("insert into t values (\(1))") }
        #expect(try connection.query("select count(*) from t").scalar == "0")
        try connection.execute("begin; insert into t values (7)")
        try connection.rolledBack { try connection.query("insert into t values (\(8))") }
        #expect(connection.transactionStatus == .inTransaction)
        try connection.execute("commit")
        #expect(try connection.query("select n from t").rows == [["7"]])
    }

    @Test func boundValuesAreNeverSQL() throws {
        let database = try ScratchDatabase(label: "api")
        let connection = try database.connect()
        let hostile = "'); drop table pg_class; --"
        let row = try connection.fetchOne("select \(hostile)::text as v, \(identifier: "odd \"name\"") from (select 1 as \(identifier: "odd \"name\"")) s")
        #expect(row?["v"] == hostile)
        #expect(row?.int(1) == 1)
        #expect(try connection.fetchBool("select \(true)::bool"))
    }

    /// The call written the natural way binds: `query(_:)` and `execute(_:)` take only
    /// `SQL` (the raw-text entries are labelled `unsafe...`), so the hostile text is a
    /// value, the table survives, and a literal holding `$1` is left as written.
    @Test func theNaturalCallBindsInterpolatedValues() throws {
        let database = try ScratchDatabase(label: "api")
        let connection = try database.connect()
        try connection.execute("create table victim (note text)")
        let hostile = "x'); drop table victim; --"
        let natural: (SQL) throws -> QueryResult = connection.query
        let inserted = try natural("insert into victim values (\(hostile)) returning note")
        #expect(inserted.scalar == hostile)
        try connection.execute("insert into victim values (\(hostile))")
        var fragment: SQL = "select count(*)::text || ' costs $1' from victim where note = \(hostile)"
        fragment.append(" and note <> \("other")")
        #expect(fragment.text == "select count(*)::text || ' costs $1' from victim where note = $1 and note <> $2")
        #expect(try connection.query(fragment).scalar == "2 costs $1")
        #expect(try connection.query("select count(*) from victim").scalar == "2")
    }
}
