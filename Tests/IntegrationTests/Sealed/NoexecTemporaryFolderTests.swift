import Foundation
import Testing
import TestSupport

/// `pgwarden dev` on a host whose temporary file systems are mounted `noexec`, as
/// hardened hosts mount `/dev/shm`. Each run has a mount namespace of its own
/// (`unshare --mount`) where a `noexec` tmpfs is mounted for it: nothing outside the run
/// sees the mount, and it goes when the run ends. Needs root (CAP_SYS_ADMIN), as the
/// tests have in CI.
@Suite(.serialized) struct NoexecTemporaryFolderTests {
    private var root: String { PackagePaths.root.path }

    private struct Run {
        var status: Int32
        var output: String
        /// What the `noexec` mount held after the run (`ls -A`).
        var leftInMount: String
    }

    /// Runs `pgwarden dev` from the repository root in a new mount namespace, after
    /// mounting a `noexec` tmpfs on `mountPoint` there.
    private func devWithNoexecMount(at mountPoint: String, environment: [String: String]) throws -> Run {
        let program = try PgwardenCLI.executable.get().path
        let script = """
            mount -t tmpfs -o noexec,nosuid,size=1g pgwarden-noexec "$1" || { echo "mount failed (needs root)"; exit 90; }
            chmod 1777 "$1"
            "$2" dev 2>&1; status=$?
            echo "left in the mount: [$(ls -A "$1")]"
            exit $status
            """
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("pgw-noexec-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: capture.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: capture) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", mountPoint, program]
        process.environment = PgwardenCLI.cleanEnvironment(environment)
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let handle = try FileHandle(forWritingTo: capture)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let output = (try? String(contentsOf: capture, encoding: .utf8)) ?? ""
        let left = output.components(separatedBy: "left in the mount: [").last?.components(separatedBy: "]").first ?? "?"
        return Run(status: process.terminationStatus, output: output, leftInMount: left)
    }

    /// A folder for the runs' directories (with a space, as users' paths may have).
    private func makeFolder() throws -> String {
        let folder = "/tmp/pgw noexec \(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aNoexecDevShmIsPassedOverAndTheRunSucceedsInTMPDIR() throws {
        let runs = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: runs) }
        let run = try devWithNoexecMount(at: "/dev/shm", environment: ["TMPDIR": runs])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("291 probes, 291 passed, 0 failed"), "\(run.output)")
        #expect(!run.output.contains("Permission denied"), "\(run.output)")
        // The server lived in TMPDIR (not the noexec /dev/shm), and nothing is left of it.
        #expect(run.leftInMount.isEmpty, "\(run.output)")
        let left = PgwardenCLI.waitFor(seconds: 10) { () -> [String]? in
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: runs)) ?? []
            return entries.isEmpty ? [] : nil
        }
        #expect(left == [], "left in \(runs): \((try? FileManager.default.contentsOfDirectory(atPath: runs)) ?? [])")
    }

    @Test func aNoexecPGWARDEN_TMPDIRIsRefusedClearlyAndLeftEmpty() throws {
        let mountPoint = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: mountPoint) }
        let run = try devWithNoexecMount(at: mountPoint, environment: ["PGWARDEN_TMPDIR": mountPoint])
        #expect(run.status == 69, "\(run.output)")  // EX_UNAVAILABLE, as every provisioning failure
        #expect(run.output.contains("\(mountPoint) is on a file system mounted noexec"), "\(run.output)")
        #expect(run.output.contains("set PGWARDEN_TMPDIR to a folder where programs may run"), "\(run.output)")
        #expect(!run.output.contains("Permission denied"), "\(run.output)")
        #expect(run.leftInMount.isEmpty, "\(run.output)")
    }
}
