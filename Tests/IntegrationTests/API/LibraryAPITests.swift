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

    /// What `pgwarden down`, `redo`, `resolve` and `seed` call: the public API alone.
    @Test func downRedoResolveAndSeedOnThePublicAPI() async throws {
        let database = try ScratchDatabase(label: "api")
        let project = Project(directory: ElectricRide.root)
        let migrations = try project.migrations()
        try await migrations.up(connectingTo: database.settings)
        let down = try await migrations.down(.steps(2), connectingTo: database.settings)
        #expect(down.command == .down && down.steps.map(\.direction) == [.down, .down])
        let connection = try database.connect()
        #expect(try migrations.status(on: connection).entries.filter { $0.state == .pending }.count == 2)
        try migrations.up(on: connection)
        let newest = try #require(migrations.files.last?.version.text)
        let redo = try await migrations.redo(connectingTo: database.settings)
        #expect(redo.command == .redo && redo.steps.map(\.version) == [newest, newest])
        // Only a failed migration can be settled; anything else is refused and changes nothing.
        let before = try connection.query("select version, name, checksum from pgwarden.schema_migrations order by version").rows
        let applied = try #require(migrations.files.first?.version)
        #expect(throws: MigrationRefusal.self) { try migrations.resolve(applied, as: .rolledBack, on: connection) }
        let unknown = try #require(MigrationVersion("42"))
        #expect(throws: MigrationInputError.self) { try migrations.resolve(unknown, as: .applied, on: connection) }
        #expect(try connection.query("select version, name, checksum from pgwarden.schema_migrations order by version").rows == before)
        #expect(try project.seed(on: connection)?.count == 3)
        #expect(try Project(directory: URL(fileURLWithPath: "/nonexistent-pgwarden-project")).seed(on: connection) == nil)
    }

    /// The checked seeds run what was read when they were checked: a file changed in
    /// between (here into one that would end the transaction) is not read again.
    @Test func checkedSeedsApplyWhatWasCheckedEvenIfAFileChanges() throws {
        let database = try ScratchDatabase(label: "api")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("01_rows.sql")
        try "insert into seeded values (1), (2);\n".write(to: file, atomically: true, encoding: .utf8)
        let seeds = try Seeds(.folder(folder))
        #expect(seeds.files.map(\.lastPathComponent) == ["01_rows.sql"])
        try "commit;\ninsert into seeded values (3);\n".write(to: file, atomically: true, encoding: .utf8)
        let connection = try database.connect()
        try connection.execute("create table seeded (n int)")
        var started: [String] = [], finished: [String] = []
        #expect(try seeds.apply(on: connection) { event in
            switch event {
            case .started(let file): started.append(file.lastPathComponent)
            case .finished(let file, _): finished.append(file.lastPathComponent)
            }
        }?.count == 1)
        #expect(started == ["01_rows.sql"] && finished == ["01_rows.sql"])
        #expect(try connection.query("select string_agg(n::text, ',' order by n) from seeded").scalar == "1,2")
        // Read now, the changed file is refused with its line, and nothing runs.
        #expect(throws: SeedError.self) { try Seeds(.folder(folder)) }
        #expect(try Seeds(.disabled).apply(on: connection) == nil)
    }

    /// A server WARNING during a run reaches the observer, naming the migration's file,
    /// and the connection's own notice handler, which is put back afterwards.
    @Test func serverWarningsReachTheObserverAndTheConnectionsHandler() throws {
        let database = try ScratchDatabase(label: "api")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "-- migrate:up\ndo $$ begin raise warning 'mind the gap'; end $$;\n-- migrate:down\nselect 1;\n"
            .write(to: folder.appendingPathComponent("20990101000000_warn.sql"), atomically: true, encoding: .utf8)
        let connection = try database.connect()
        final class Seen: @unchecked Sendable { var notices: [String] = [] }
        let seen = Seen()
        connection.onNotice { seen.notices.append($0.message) }
        var events: [String] = []
        try Migrations(directory: folder).up(on: connection) { event in
            if case .warning(let text) = event { events.append(text) }
        }
        #expect(events.contains { $0.contains("20990101000000_warn.sql") && $0.contains("mind the gap") }, "\(events)")
        #expect(seen.notices.contains("mind the gap"))
        try connection.execute("do $$ begin raise warning 'after the run'; end $$")
        #expect(seen.notices.last == "after the run")
        #expect(!events.contains { $0.contains("after the run") })
    }

    /// Server WARNINGs of one shape in a row (a dump's grants on an extension's
    /// functions: `no privileges were granted for "..."`, once per function) are
    /// reported once, then counted in one line; another shape starts again.
    @Test func warningsOfOneShapeInARowAreReportedOnceWithACount() throws {
        let database = try ScratchDatabase(label: "api")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warn-many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            do $$ begin
              for i in 1..5 loop raise warning 'no privileges were granted for "f%"', i; end loop;
              raise warning 'mind the gap';
              for i in 6..7 loop raise warning 'no privileges were granted for "f%"', i; end loop;
            end $$;
            """.write(to: folder.appendingPathComponent("20990101000000_grants.sql"), atomically: true, encoding: .utf8)
        var events: [String] = []
        try Migrations(directory: folder).up(on: try database.connect()) { event in
            if case .warning(let text) = event { events.append(text) }
        }
        let file = "20990101000000_grants.sql: "
        #expect(events.map { $0.components(separatedBy: "/").last ?? $0 } == [
            file + "server WARNING: no privileges were granted for \"f1\"",
            file + "server WARNING, 4 more like it (the last: no privileges were granted for \"f5\")",
            file + "server WARNING: mind the gap",
            file + "server WARNING: no privileges were granted for \"f6\"",
            file + "server WARNING, 1 more like it (the last: no privileges were granted for \"f7\")",
        ], "\(events)")
    }

    /// A WARNING raised at COMMIT (a deferred constraint trigger) names the migration
    /// that committed, although its COMMIT travels with the next migration's BEGIN, and
    /// the last migration's too (its COMMIT goes alone at the end of the run).
    @Test func aWarningAtCommitNamesTheMigrationThatCommitted() throws {
        let database = try ScratchDatabase(label: "api")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warn-commit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func deferredWarning(_ table: String) -> String {
            """
            -- migrate:up
            create table \(table) (n int);
            create function \(table)_checked() returns trigger language plpgsql as $$
            begin raise warning 'checked % at commit', tg_table_name; return null; end $$;
            create constraint trigger \(table)_at_commit after insert on \(table)
                deferrable initially deferred for each row execute function \(table)_checked();
            insert into \(table) values (1);
            -- migrate:down
            drop table \(table);
            drop function \(table)_checked();

            """
        }
        try deferredWarning("first").write(
            to: folder.appendingPathComponent("20990101000001_first.sql"), atomically: true, encoding: .utf8)
        try deferredWarning("second").write(
            to: folder.appendingPathComponent("20990101000002_second.sql"), atomically: true, encoding: .utf8)
        let connection = try database.connect()
        var events: [String] = []
        try Migrations(directory: folder).up(on: connection) { event in
            if case .warning(let text) = event { events.append(text) }
        }
        #expect(events.contains { $0.contains("20990101000001_first.sql: server WARNING: checked first at commit") }, "\(events)")
        #expect(events.contains { $0.contains("20990101000002_second.sql: server WARNING: checked second at commit") }, "\(events)")
        #expect(!events.contains { $0.contains("second.sql") && $0.contains("checked first") }, "\(events)")
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
