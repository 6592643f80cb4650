import Foundation
import Testing
import PgwardenExamples
import WardenKit
import TestSupport

/// `pgwarden init`'s library part: all files or none, never over an existing file.
@Suite struct ProjectInitializerTests {
    private func scratch() throws -> URL {
        let url = TestFolder.url("init")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func contents(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func writesEveryFileOfEachExample() throws {
        for example in ProjectExample.allCases {
            let folder = try scratch().appendingPathComponent("new/project")
            let written = try ProjectInitializer(example: example, folder: folder).write()
            #expect(written == example.files.map(\.path))
            #expect(!written.isEmpty)
            for file in example.files {
                #expect(try String(contentsOf: folder.appendingPathComponent(file.path), encoding: .utf8) == file.text)
            }
            for name in ProjectExample.folders {
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path))
            }
        }
    }

    @Test func refusesWhenAFileExistsAndWritesNothing() throws {
        let folder = try scratch()
        try "mine".write(to: folder.appendingPathComponent("access-plan.yml"), atomically: true, encoding: .utf8)
        let error = try #require(throws: ProjectInitError.self) {
            try ProjectInitializer(example: .todo, folder: folder).write()
        }
        #expect(error.reason == .exists)
        #expect(error.path.hasSuffix("/access-plan.yml"))
        #expect(error.description.contains("already exists"))
        #expect(contents(folder) == ["access-plan.yml"])
        #expect(try String(contentsOf: folder.appendingPathComponent("access-plan.yml"), encoding: .utf8) == "mine")
    }

    @Test func removesWhatItWroteWhenAWriteFails() throws {
        let folder = try scratch()
        // A file where the seeds folder must go: the folders before it are made, then removed.
        try "not a folder".write(to: folder.appendingPathComponent("seeds"), atomically: true, encoding: .utf8)
        let error = try #require(throws: ProjectInitError.self) {
            try ProjectInitializer(example: .electricRide, folder: folder).write()
        }
        #expect(error.path.hasSuffix("/seeds"))
        #expect(contents(folder) == ["seeds"])
    }
}
