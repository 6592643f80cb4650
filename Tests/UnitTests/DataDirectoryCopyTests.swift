import Foundation
import Testing
@testable import WardenKit

/// `DataDirectoryCopy`: what `dev` copies a cached template with (no server needed).
struct DataDirectoryCopyTests {
    private func folder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ddc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
        return root
    }

    @Test func copiesFoldersFilesLinksAndModesAndReportsEverySize() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let source = root.appendingPathComponent("data")
        let manager = FileManager.default
        try manager.createDirectory(at: source.appendingPathComponent("base/5"), withIntermediateDirectories: true)
        chmod(source.path, 0o700)
        let big = Data((0..<300_000).map { UInt8($0 % 251) })
        try big.write(to: source.appendingPathComponent("base/5/1259"))
        try Data("15\n".utf8).write(to: source.appendingPathComponent("PG_VERSION"))
        try Data().write(to: source.appendingPathComponent("base/5/empty"))
        chmod(source.appendingPathComponent("PG_VERSION").path, 0o600)
        try manager.createSymbolicLink(atPath: source.appendingPathComponent("pg_wal").path, withDestinationPath: "/nowhere/wal")

        let target = root.appendingPathComponent("copy")
        let sizes = try DataDirectoryCopy.copy(source, to: target)

        #expect(sizes == ["base/5/1259": 300_000, "PG_VERSION": 3, "base/5/empty": 0])
        #expect(try Data(contentsOf: target.appendingPathComponent("base/5/1259")) == big)
        #expect(try String(contentsOf: target.appendingPathComponent("PG_VERSION"), encoding: .utf8) == "15\n")
        #expect(try manager.destinationOfSymbolicLink(atPath: target.appendingPathComponent("pg_wal").path) == "/nowhere/wal")
        #expect((try manager.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int) == 0o700)
        #expect((try manager.attributesOfItem(atPath: target.appendingPathComponent("PG_VERSION").path)[.posixPermissions] as? Int) == 0o600)
        // The same sizes as a walk of the copy: what the cache's manifest check compares.
        #expect(try TemplateManifest(of: target, key: "k").sizes == sizes)
    }

    @Test func refusesATargetThatExists() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let source = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: false)
        let target = root.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        #expect(throws: TemplateCacheProblem.self) { _ = try DataDirectoryCopy.copy(source, to: target) }
    }
}
