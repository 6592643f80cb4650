import Foundation
import Testing
@testable import WardenKit

/// A new server is ready when its `postmaster.pid` names its postmaster and says
/// `ready` (what pg_ctl waits on); a file naming another process, or one still
/// starting, is not read as ready.
@Suite struct PostmasterReadinessTests {
    private func pidFile(_ lines: [String]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pgwarden-pidfile-\(UUID().uuidString)")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The eight lines PostgreSQL 15 writes: pid, data directory, start time, port,
    /// socket directory, listen address, shared memory key, status.
    private func lines(pid: String, status: String) -> [String] {
        [pid, "/tmp/pgwarden-x/data", "1795860000", "5432", "/tmp/pgwarden-x", "", "  5432001    196608", status]
    }

    @Test func readyForItsOwnPostmasterOnly() throws {
        let ready = try pidFile(lines(pid: "4242", status: "ready   "))
        defer { try? FileManager.default.removeItem(atPath: ready) }
        #expect(LocalCluster.saysReady(ready, postmaster: 4242))
        #expect(!LocalCluster.saysReady(ready, postmaster: 4243))
    }

    @Test func startingMissingOrShortFilesAreNotReady() throws {
        let starting = try pidFile(lines(pid: "4242", status: "starting"))
        let short = try pidFile(Array(lines(pid: "4242", status: "ready").prefix(7)))
        defer {
            try? FileManager.default.removeItem(atPath: starting)
            try? FileManager.default.removeItem(atPath: short)
        }
        #expect(!LocalCluster.saysReady(starting, postmaster: 4242))
        #expect(!LocalCluster.saysReady(short, postmaster: 4242))
        #expect(!LocalCluster.saysReady(starting + ".missing", postmaster: 4242))
    }
}
