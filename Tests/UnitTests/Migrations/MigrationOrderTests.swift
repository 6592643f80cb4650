import Foundation
import Testing
@testable import WardenKit
import TestSupport

/// Folders apply in their own tool's order; placeholders are empty migrations.
@Suite struct MigrationOrderTests {
    @Test func supabaseFoldersApplyInFileNameOrderAndStatusSaysWhereNumericOrderDiffers() throws {
        let folder = try TemporaryFolder()
        try folder.write("20230104160241_init.sql", "create table golfer (id int);")
        try folder.write("202406201411_add_col.sql", "alter table golfer add column handicap int;")
        let directory = try MigrationDirectory.load(folder.path)
        #expect(directory.files.map(\.version.text) == ["20230104160241", "202406201411"])
        let notes = MigrationOrderNotes.lines(directory, records: [])
        #expect(notes == ["order: file-name order, as the Supabase CLI and dbmate apply this folder: "
            + "20230104160241_init.sql applies before 202406201411_add_col.sql, although numeric order of the "
            + "versions would put it after"])
    }

    @Test func golangMigratePairsStayNumeric() throws {
        let folder = try TemporaryFolder()
        try folder.write("10_b.up.sql", "select 10;")
        try folder.write("9_a.up.sql", "select 9;")
        let directory = try MigrationDirectory.load(folder.path)
        #expect(directory.order == .numeric)
        #expect(directory.files.map(\.version.text) == ["9", "10"])
        #expect(MigrationOrderNotes.lines(directory, records: []).isEmpty)
    }

    @Test func aPendingFileBeforeAnAppliedOneIsNamedAndAppliedAfterIt() throws {
        let folder = try TemporaryFolder()
        try folder.write("20240101000000_a.sql", "select 1;")
        try folder.write("20240102000000_b.sql", "select 2;")
        let directory = try MigrationDirectory.load(folder.path)
        let applied = [MigrationRecord(version: "20240102000000", name: "b", checksum: directory.files[1].checksum)]
        let notes = MigrationOrderNotes.lines(directory, records: applied)
        #expect(notes.count == 1)
        #expect(notes.first?.hasPrefix("out of order: 20240101000000_a.sql is pending but comes before 20240102000000_b.sql") == true)
        let pending = try MigrationPlanner.up(files: directory.files, records: applied, to: nil, allowDrift: false, folder: "m")
        #expect(pending.map(\.name) == ["a"])
    }

    @Test func commentOnlyAndEmptyFilesAreEmptyMigrations() throws {
        let folder = try TemporaryFolder()
        try folder.write("20240101000000_placeholder.sql", "-- applied on the hosted project by hand\n\n")
        try folder.write("20240102000000_empty.sql", "")
        let directory = try MigrationDirectory.load(folder.path)
        #expect(directory.files.map(\.up.isEmpty) == [true, true])
        #expect(directory.files.map { $0.down == nil } == [true, true])
    }

    @Test func anEmptyUpSectionAfterItsMarkerIsStillRefused() throws {
        #expect(throws: MigrationInputError.emptyUpSection(file: "m/1_a.sql", line: 1)) {
            try MigrationDirectory.parse(fileName: "1_a.sql", text: "-- migrate:up\n-- migrate:down\nselect 1;\n", folder: "m")
        }
    }
}

/// The migrator in a file-name-ordered folder, against the in-memory history.
@Suite struct MigratorOrderTests {
    func file(_ name: String, _ sql: String) throws -> MigrationFile {
        try MigrationDirectory.parse(fileName: name, text: sql)
    }

    @Test func upRunsInFileNameOrderAndDownUndoesTheLastFirst() throws {
        let files = try [
            file("202406201411_add_col.sql", "-- migrate:up\nalter table g add c int;\n-- migrate:down\nalter table g drop c;\n"),
            file("20230104160241_init.sql", "-- migrate:up\ncreate table g ();\n-- migrate:down\ndrop table g;\n"),
        ]
        let history = InMemoryHistory()
        let migrator = Migrator(directory: MigrationDirectory(path: "m", files: files), history: history, session: history)
        #expect(try migrator.up().steps.map(\.version) == ["20230104160241", "202406201411"])
        #expect(try migrator.down(.steps(1)).steps.map(\.version) == ["202406201411"])
        #expect(try migrator.up(to: MigrationVersion("202406201411")).steps.map(\.version) == ["202406201411"])
        #expect(try migrator.down(.to(#require(MigrationVersion("20230104160241")))).steps.map(\.version) == ["202406201411"])
    }

    @Test func aPendingFileBeforeAnAppliedOneIsAppliedWithAWarning() throws {
        let files = try [file("20240101000000_a.sql", "select 1;"), file("20240102000000_b.sql", "select 2;")]
        let history = InMemoryHistory()
        history.rows = [MigrationRecord(version: "20240102000000", name: "b", checksum: files[1].checksum)]
        let migrator = Migrator(directory: MigrationDirectory(path: "m", files: files), history: history, session: history)
        var warnings: [String] = []
        migrator.observer = { event in if case .warning(let text) = event { warnings.append(text) } }
        #expect(try migrator.up().steps.map(\.version) == ["20240101000000"])
        #expect(warnings.contains { $0.hasPrefix("out of order: 20240101000000_a.sql is pending") })
    }
}
