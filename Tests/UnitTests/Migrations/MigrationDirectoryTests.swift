import Foundation
import Testing
import WardenKit
import TestSupport

/// A temporary folder of migration files, removed when the test ends.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "pgwarden-unit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
    }

    func write(_ name: String, bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
    }
}

@Suite struct MigrationDirectoryTests {
    func loadError(_ path: String) -> MigrationInputError? {
        do {
            _ = try MigrationDirectory.load(path)
            return nil
        } catch {
            return error as? MigrationInputError
        }
    }

    /// Single files apply in file-name order, as the Supabase CLI and dbmate apply them.
    @Test func loadsSqlFilesInFileNameOrderAndIgnoresOthers() throws {
        let folder = try TemporaryFolder()
        try folder.write("10_second.sql", "select 2;")
        try folder.write("9_first.sql", "-- migrate:up\nselect 1;\n-- migrate:down\nselect 0;")
        try folder.write("README.md", "not a migration")
        try folder.write("notes.txt", "")
        try FileManager.default.createDirectory(atPath: folder.path + "/old.sql", withIntermediateDirectories: true)
        let directory = try MigrationDirectory.load(folder.path)
        #expect(directory.files.map(\.fileName) == ["10_second.sql", "9_first.sql"])
        #expect(directory.order == .fileName)
        #expect(directory.files.first?.path == "\(folder.path)/10_second.sql")
    }

    @Test func skipsSqlFilesWhoseNamesAreNotMigrations() throws {
        // (`12_.sql` and `1_a b.sql` are migrations, as the Supabase CLI reads them; a
        // name with a newline or another control character is none.)
        for name in ["create_users.sql", "001-init.sql", "_init.sql", "12.sql", "v1_init.sql", "1_a\rb.sql", "1_a\tb.sql",
                     "local_20240107152745_ollama.sql"] {
            let folder = try TemporaryFolder()
            try folder.write(name, "select 1;")
            try folder.write("2_real.sql", "select 2;")
            let directory = try MigrationDirectory.load(folder.path)
            #expect(directory.skipped == ["\(folder.path)/\(name)"], "\(name)")
            #expect(directory.files.map(\.name) == ["real"], "\(name)")
        }
    }

    @Test func rejectsTwoFilesWithOneVersion() throws {
        let folder = try TemporaryFolder()
        try folder.write("0001_a.sql", "select 1;")
        try folder.write("1_b.sql", "select 1;")
        #expect(loadError(folder.path) == .duplicateVersion(
            version: "1", file: "\(folder.path)/1_b.sql", otherFile: "\(folder.path)/0001_a.sql"))
    }

    /// Every clash in one error: a project with three took three runs to find them all
    /// (round thirty-seven).
    @Test func namesEveryClashOfVersionsAtOnce() throws {
        let folder = try TemporaryFolder()
        for name in ["001_a.sql", "001_b.sql", "002_c.sql", "002_d.sql", "003_e.sql", "3_f.sql"] { try folder.write(name, "select 1;") }
        let error = try #require(loadError(folder.path))
        #expect(error == .duplicateVersion(
            version: "001", file: "\(folder.path)/001_b.sql", otherFile: "\(folder.path)/001_a.sql",
            moreClashes: ["\(folder.path)/002_d.sql with \(folder.path)/002_c.sql", "\(folder.path)/3_f.sql with \(folder.path)/003_e.sql"]))
        #expect(error.description.hasSuffix("every migration needs its own version; 2 more clashes:\n  \(folder.path)/002_d.sql with "
            + "\(folder.path)/002_c.sql\n  \(folder.path)/3_f.sql with \(folder.path)/003_e.sql"))
    }

    /// Many clashes: one a line, the first twenty, then how many more (119 made one line
    /// of 12 kB; round thirty-eight).
    @Test func manyClashesAreListedOneALineAndCut() throws {
        let folder = try TemporaryFolder()
        for version in 1...23 { for name in ["a", "b"] { try folder.write("\(version)_\(name).sql", "select 1;") } }
        let error = try #require(loadError(folder.path))
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == 1 + 20 + 1, "\(error.description)")
        #expect(lines.first?.hasSuffix("; 22 more clashes:") == true, "\(error.description)")
        #expect(lines.last == "  ... and 2 more", "\(error.description)")
    }

    @Test func rejectsInvalidUTF8WithItsLine() throws {
        let folder = try TemporaryFolder()
        try folder.write("1_latin1.sql", bytes: Array("-- migrate:up\nselect 'caf".utf8) + [0xE9] + Array("';\n".utf8))
        #expect(loadError(folder.path) == .notUTF8(file: "\(folder.path)/1_latin1.sql", line: 2))
    }

    @Test func acceptsAByteOrderMark() throws {
        let folder = try TemporaryFolder()
        try folder.write("1_bom.sql", bytes: [0xEF, 0xBB, 0xBF] + Array("-- migrate:up\nselect 1;".utf8))
        #expect(try MigrationDirectory.load(folder.path).files.first?.up.startLine == 2)
    }

    @Test func rejectsAMissingFolderOrAFile() throws {
        let folder = try TemporaryFolder()
        #expect(loadError(folder.path + "/nope") == .folderMissing(folder: folder.path + "/nope"))
        try folder.write("1_a.sql", "select 1;")
        #expect(loadError(folder.path + "/1_a.sql") == .notAFolder(folder: folder.path + "/1_a.sql"))
    }

    @Test func showsPathsAsGiven() {
        #expect(MigrationDirectory.displayPath(folder: "./migrations", file: "1_a.sql") == "migrations/1_a.sql")
        #expect(MigrationDirectory.displayPath(folder: "db/migrations/", file: "1_a.sql") == "db/migrations/1_a.sql")
        #expect(MigrationDirectory.displayPath(folder: ".", file: "1_a.sql") == "1_a.sql")
        #expect(MigrationDirectory.displayPath(folder: "/", file: "1_a.sql") == "/1_a.sql")
    }

    @Test func everyErrorIsOneLineNamingTheFile() {
        let errors: [MigrationInputError] = [
            .badFileName(file: "m/x.sql"), .duplicateVersion(version: "1", file: "m/1_a.sql", otherFile: "m/01_b.sql"),
            .notUTF8(file: "m/1_a.sql", line: 3), .downBeforeUp(file: "m/1_a.sql", line: 1),
            .repeatedMarker(file: "m/1_a.sql", line: 4, marker: "up", firstLine: 1),
            .unknownMarkerOption(file: "m/1_a.sql", line: 1, option: "x:y"), .emptyUpSection(file: "m/1_a.sql", line: 1),
            .statementsBeforeUpMarker(file: "m/1_a.sql", line: 2), .fileUnreadable(file: "m/1_a.sql", reason: "denied"),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix("m/"))
        }
    }
}
