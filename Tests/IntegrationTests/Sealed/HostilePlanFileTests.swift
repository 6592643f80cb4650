import TestSupport
import WardenKit
import Foundation
import Testing

/// A hostile plan file (a YAML alias bomb of a few hundred bytes) is refused by the
/// real executable as a plan error, within a second and a few MB, before anything
/// connects.
@Suite struct HostilePlanFileTests {
    /// Runs pgwarden with `arguments`; returns its exit status, seconds taken and peak
    /// resident memory in KiB (from `wait4`).
    private func measure(_ arguments: [String]) throws -> (status: Int32, seconds: Double, maxKiB: Int) {
        let program = try PgwardenCLI.executable.get().path
        let words = [program] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { word in strdup(word) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let began = ContinuousClock.now
        var pid: pid_t = 0
        guard posix_spawn(&pid, program, &actions, nil, argv, environ) == 0 else {
            throw PgwardenCLI.CLIError.notBuilt([program])
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - began
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                Int(usage.ru_maxrss))
    }

    @Test func anAliasBombIsAPlanErrorWithinASecondAndAFewMegabytes() throws {
        // Inside user metadata, which is rendered as JSON: expanded, 9^9 strings.
        var text = "personas:\n  ava:\n    role: authenticated\n    email: ava@example.com\n    metadata:\n"
        text += "      a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            text += "      \(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
            previous = name
        }
        #expect(text.utf8.count < 700)
        let plan = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString).yml")
        try text.write(to: plan, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: plan) }
        // A baseline: the same command with a tiny valid-YAML but wrong plan.
        let tiny = FileManager.default.temporaryDirectory.appendingPathComponent("tiny-\(UUID().uuidString).yml")
        try "personas: {}\n".write(to: tiny, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: tiny) }
        let unreachable = "postgresql://nobody@127.0.0.1:1/none"
        let baseline = try measure(["test", "--plan", tiny.path, "--database-url", unreachable])
        let bomb = try measure(["test", "--plan", plan.path, "--database-url", unreachable])
        #expect(baseline.status == 65)
        #expect(bomb.status == 65)
        #expect(bomb.seconds < 1.5, "took \(bomb.seconds) s")
        #expect(bomb.maxKiB - baseline.maxKiB < 16 * 1024, "peak \(bomb.maxKiB) KiB against \(baseline.maxKiB) KiB")
    }
}
