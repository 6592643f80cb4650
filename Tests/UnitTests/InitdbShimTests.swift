import Foundation
import Testing
@testable import WardenKit

/// The `postgres` that the shimmed `initdb` runs: the server with
/// `-c dynamic_shared_memory_type=mmap` after `--boot` or `--single`, and as it is for
/// anything else, whatever the server's path holds (spaces, quotes).
@Suite struct InitdbShimTests {
    /// A shim whose "server" is a script that prints its arguments, one per line.
    private func shim() throws -> (folder: URL, postgres: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("shim it's \(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let server = root.appendingPathComponent("server's postgres")
        try "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n".write(to: server, atomically: true, encoding: .utf8)
        chmod(server.path, 0o755)
        let initdb = root.appendingPathComponent("initdb")
        try "#!/bin/sh\n".write(to: initdb, atomically: true, encoding: .utf8)
        let copy = try InitdbShim.make(in: root.appendingPathComponent("initdb folder"), initdb: initdb, server: server)
        #expect(FileManager.default.isExecutableFile(atPath: copy.path))
        return (root, copy.deletingLastPathComponent().appendingPathComponent("postgres").path)
    }

    private func arguments(of postgres: String, _ given: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: postgres)
        process.arguments = given
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func theBackendsGetTheSettingAndNothingElseChanges() throws {
        let (root, postgres) = try shim()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try arguments(of: postgres, ["--boot", "-X", "1048576", "-c", "log_checkpoints=false", "template1"])
            == ["--boot", "-c", "dynamic_shared_memory_type=mmap", "-X", "1048576", "-c", "log_checkpoints=false", "template1"])
        #expect(try arguments(of: postgres, ["--single", "-F", "-O", "-c", "search_path=pg_catalog", "template 1"])
            == ["--single", "-c", "dynamic_shared_memory_type=mmap", "-F", "-O", "-c", "search_path=pg_catalog", "template 1"])
        #expect(try arguments(of: postgres, ["-V"]) == ["-V"])
        #expect(try arguments(of: postgres, ["--describe-config", ""]) == ["--describe-config", ""])
    }
}
