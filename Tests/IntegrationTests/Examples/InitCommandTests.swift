import TestSupport
import WardenKit
import Foundation
import Testing

/// `pgwarden init`: each project passes `pgwarden dev` at once; existing files stop it.
@Suite struct InitCommandTests {
    private func scratch() throws -> URL {
        let url = TestFolder.url("init-cli")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(arguments: ["electric-ride", "todo", "profiles", "empty"])
    func initThenDevPasses(example: String) throws {
        let parent = try scratch()
        let created = try PgwardenCLI.run(["init", "project", "--example", example], directory: parent.path)
        #expect(created.status == 0, "\(created.all)")
        #expect(created.standardOutput.contains("created project/access-plan.yml"))
        #expect(created.standardOutput.contains("next: cd project && pgwarden dev"))
        let dev = try PgwardenCLI.run(["dev"], directory: parent.appendingPathComponent("project").path)
        #expect(dev.status == 0, "\(dev.all)")
        #expect(dev.standardOutput.contains(" 0 failed"))
    }

    @Test func refusesToOverwriteNamingTheFileAndWritesNothing() throws {
        let folder = try scratch()
        let existing = folder.appendingPathComponent("migrations/20261122000100_create_todos.sql")
        try FileManager.default.createDirectory(at: existing.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "-- mine".write(to: existing, atomically: true, encoding: .utf8)
        let output = try PgwardenCLI.run(["init", folder.path, "--example", "todo"])
        #expect(output.status == 65)
        #expect(output.standardError.contains("\(existing.path): already exists"))
        let left = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
        #expect(left == ["migrations", "migrations/20261122000100_create_todos.sql"])
        #expect(try String(contentsOf: existing, encoding: .utf8) == "-- mine")
    }

    /// A target under a file cannot be created: exit 73 (a file cannot be written, as
    /// `--help` says), one line naming it, and nothing written.
    @Test func anUnwritableTargetExitsSeventyThreeAndWritesNothing() throws {
        let folder = try scratch()
        let blocker = folder.appendingPathComponent("blocker")
        try "a file".write(to: blocker, atomically: true, encoding: .utf8)
        let output = try PgwardenCLI.run(["init", blocker.appendingPathComponent("project").path])
        #expect(output.status == 73, "\(output.all)")
        #expect(output.standardError.contains("\(blocker.path): cannot write"), "\(output.all)")
        #expect(output.standardError.filter { $0 == "\n" }.count == 1, "\(output.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["blocker"])
        let help = try PgwardenCLI.run(["--help"])
        let words = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // --help wraps lines
        #expect(words.contains("73 a file cannot be written (a report, init's project, a plan draft)"), "\(words)")
    }

    @Test func refusesAnUnknownExample() throws {
        let folder = try scratch()
        let output = try PgwardenCLI.run(["init", folder.path, "--example", "blog"])
        #expect(output.status == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
