import Foundation
import Testing
@testable import WardenKit

/// Finding the server programs without running Debian's pg_config wrapper (three
/// processes for one answer the Debian folders give), while a pg_config of the
/// user's own on PATH is still asked first.
@Suite struct PostgresBinariesTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pgwarden-binaries-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func executable(_ url: URL, _ text: String) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }

    @Test func debiansWrapperIsRecognizedAndOthersAreNot() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let wrapper = root.appendingPathComponent("debian")
        try executable(wrapper, "#!/bin/sh\nset -e\nPGBINROOT=\"/usr/lib/postgresql/\"\nexec false\n")
        let own = root.appendingPathComponent("own")
        try executable(own, "#!/bin/sh\necho /opt/pg/bin\n")
        #expect(PostgresBinaries.isDebianWrapper(wrapper.path))
        #expect(!PostgresBinaries.isDebianWrapper(own.path))
        #expect(!PostgresBinaries.isDebianWrapper(root.appendingPathComponent("missing").path))
        if FileManager.default.fileExists(atPath: "/usr/bin/pg_config"),
           (try? String(contentsOfFile: "/usr/bin/pg_config", encoding: .utf8))?.contains("PGBINROOT") == true {
            #expect(PostgresBinaries.isDebianWrapper("/usr/bin/pg_config"))
        }
    }

    @Test func aPgConfigOfTheUsersOwnIsAskedFirst() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("bin"), server = root.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: server, withIntermediateDirectories: true)
        try executable(bin.appendingPathComponent("pg_config"), "#!/bin/sh\necho \(server.path)\n")
        try executable(server.appendingPathComponent("initdb"), "#!/bin/sh\n")
        try executable(server.appendingPathComponent("postgres"), "#!/bin/sh\n")
        let found = try PostgresBinaries.locate(environment: ["PATH": bin.path])
        #expect(found.directory.path == server.path)
    }

    @Test func behindDebiansWrapperTheHighestDebianFolderIsUsed() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        // Were the wrapper run, its answer (a folder with server programs) would win.
        let decoy = root.appendingPathComponent("decoy")
        try FileManager.default.createDirectory(at: decoy, withIntermediateDirectories: true)
        try executable(decoy.appendingPathComponent("initdb"), "#!/bin/sh\n")
        try executable(decoy.appendingPathComponent("postgres"), "#!/bin/sh\n")
        try executable(root.appendingPathComponent("pg_config"),
                       "#!/bin/sh\nPGBINROOT=\"/usr/lib/postgresql/\"\necho \(decoy.path)\n")
        let found = try PostgresBinaries.locate(environment: ["PATH": root.path])
        let highest = try #require(((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).max())
        #expect(found.directory.path == "/usr/lib/postgresql/\(highest)/bin")
    }
}
