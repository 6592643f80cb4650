import Foundation
import Testing
import PgwardenExamples
import WardenKit
import TestSupport

/// The example files inside the binary are the repository's files, byte for byte
/// (the EmbedExamples build plugin writes them into the build folder at every build).
@Suite struct EmbeddedExampleFilesTests {
    static let root = PackagePaths.root

    /// Each example's files as in the repository: Electric Ride is the root project
    /// (its migrations, seeds and plan); the others are the folders under examples/.
    static func repositoryFiles() throws -> [(example: ProjectExample, files: [ProjectFile])] {
        try ProjectExample.allCases.map { example in
            var paths: [(relative: String, url: URL)] = []
            if example == .electricRide {
                for folder in ["migrations", "seeds"] {
                    let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                    paths += names.filter { $0.hasSuffix(".sql") }.map { ("\(folder)/\($0)", root.appendingPathComponent("\(folder)/\($0)")) }
                }
                paths.append(("access-plan.yml", root.appendingPathComponent("access-plan.yml")))
            } else {
                let base = root.appendingPathComponent("examples/\(example.rawValue)")
                let enumerator = try #require(FileManager.default.enumerator(atPath: base.path))
                while let relative = enumerator.nextObject() as? String {
                    var isFolder: ObjCBool = false
                    let url = base.appendingPathComponent(relative)
                    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                        paths.append((relative, url))
                    }
                }
            }
            let files = try paths.sorted { $0.relative < $1.relative }.map {
                ProjectFile(path: $0.relative, text: try String(contentsOf: $0.url, encoding: .utf8))
            }
            return (example, files)
        }
    }

    @Test func theBinaryHoldsEveryExampleFileAsItIsInTheRepository() throws {
        for (example, files) in try Self.repositoryFiles() {
            #expect(!files.isEmpty, "\(example.rawValue): no files in the repository")
            #expect(example.files.map(\.path) == files.map(\.path), "\(example.rawValue)")
            #expect(example.files == files, "\(example.rawValue)")
        }
    }
}
