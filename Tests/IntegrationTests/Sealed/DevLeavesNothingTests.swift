import Foundation
import Testing
import WardenKit
import TestSupport

/// `pgwarden dev` leaves no server process and no directory behind, whatever ends it:
/// SIGINT, SIGTERM, SIGHUP, SIGPIPE or SIGKILL at any moment (start-up, migrations,
/// the plan run, after "dev: done", with `--keep`), or a reader that goes away.
/// Every run uses a temporary base with a space in its path.
@Suite(.serialized) struct DevLeavesNothingTests {
    private var root: String { PackagePaths.root.path }

    /// A fresh base directory for server directories (with a space, short enough
    /// for a Unix socket path).
    private func makeBase() throws -> String {
        let base = "/tmp/pgw dev \(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return base
    }

    /// Processes whose working directory is inside `base` (the postmaster, its
    /// backends and initdb all run there), from `/proc` (Linux).
    private func processes(under base: String) -> [String] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return pids.filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            guard let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd") else { return false }
            return cwd == base || cwd.hasPrefix(base + "/")
        }
    }

    /// System V shared memory segments that no process has attached (PostgreSQL's
    /// 56-byte interlock, left by a backend killed before it could remove it), by id.
    private func unattachedSystemVSegments() -> Set<String> {
        let table = (try? String(contentsOfFile: "/proc/sysvipc/shm", encoding: .utf8)) ?? ""
        return Set(table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            return fields.count > 6 && fields[6] == "0" ? String(fields[1]) : nil
        })
    }

    /// POSIX shared memory segments of PostgreSQL's (`/dev/shm/PostgreSQL.<n>`) that no
    /// process has mapped: what a backend killed before removing them leaves.
    private func unmappedPosixSegments() -> Set<String> {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []).filter {
            $0.hasPrefix("PostgreSQL.")
        }
        guard !names.isEmpty else { return [] }
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { $0.allSatisfy(\.isNumber) }
        let maps = pids.map { (try? String(contentsOfFile: "/proc/\($0)/maps", encoding: .utf8)) ?? "" }.joined()
        return Set(names.filter { !maps.contains("/dev/shm/\($0)") })
    }

    private func leftovers(in base: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
    }

    /// Waits (bounded) until nothing of the run is left; returns what is left.
    private func settle(_ base: String, seconds: Double = 15) -> (processes: [String], files: [String]) {
        _ = PgwardenCLI.waitFor(seconds: seconds) { () -> Bool? in
            processes(under: base).isEmpty && leftovers(in: base).isEmpty ? true : nil
        }
        return (processes(under: base), leftovers(in: base))
    }

    private func output(_ running: PgwardenCLI.Running) -> String {
        (try? String(contentsOf: running.outURL, encoding: .utf8)) ?? ""
    }

    @Test func devWithASpaceInItsTemporaryDirectoryWorksAndLeavesNothing() throws {
        let base = try makeBase()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let result = try PgwardenCLI.run(
            ["dev"], environment: PgwardenCLI.cleanEnvironment(["PGWARDEN_TMPDIR": base]), directory: root)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.standardOutput.contains("291 probes, 291 passed, 0 failed"))
        let left = settle(base, seconds: 5)
        #expect(left.processes.isEmpty && left.files.isEmpty, "\(left)")
    }

    /// One run of `pgwarden dev` ended by `signal` at a random moment (or, for
    /// `afterDone`, while `--keep` holds the server after the report); returns what
    /// is wrong (nothing when nothing was left) and the last line it printed.
    private func trial(_ signal: Int32, afterDone: Bool) throws -> (problems: [String], moment: String) {
        let base = try makeBase()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let running = try PgwardenCLI.start(
            afterDone ? ["dev", "--keep"] : ["dev"], environment: PgwardenCLI.cleanEnvironment(["PGWARDEN_TMPDIR": base]),
            directory: root)
        if afterDone {
            _ = PgwardenCLI.waitFor(seconds: 60) { output(running).contains("press Ctrl-C") ? true : nil }
            usleep(UInt32.random(in: 0...50_000))
        } else {
            usleep(UInt32.random(in: 0...1_200_000))  // start-up, migrations, seeds, the plan, "done"
        }
        kill(running.process.processIdentifier, signal)
        let result = running.wait()
        let left = settle(base)
        let moment = result.standardOutput.split(separator: "\n").last.map(String.init) ?? "(nothing printed)"
        var problems: [String] = []
        if !left.processes.isEmpty { problems.append("processes \(left.processes) left") }
        if !left.files.isEmpty { problems.append("\(left.files) left") }
        if afterDone && result.status == 0 { problems.append("exit 0 after a signal: \(result.all)") }
        return (problems.map { "signal \(signal) after '\(moment)': \($0)" }, moment)
    }

    @Test func everySignalAtRandomMomentsLeavesNoProcessAndNoDirectory() throws {
        // 30 trials, two at a time; each ends its own run with one of the five signals.
        let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGKILL]
        let systemVBefore = unattachedSystemVSegments(), posixBefore = unmappedPosixSegments()
        let began = ContinuousClock.now
        let lock = NSLock()
        nonisolated(unsafe) var outcomes: [(problems: [String], moment: String)] = []
        DispatchQueue.concurrentPerform(iterations: 30) { index in
            let outcome = (try? trial(signals[index % signals.count], afterDone: index % 10 == 9))
                ?? (["trial \(index) could not start pgwarden"], "")
            lock.lock()
            outcomes.append(outcome)
            lock.unlock()
        }
        #expect(outcomes.count == 30)
        for problem in outcomes.flatMap(\.problems) { Issue.record("\(problem)") }
        // Bounded: about 25 s on an idle 2-core machine; the bound only catches a hang.
        #expect(ContinuousClock.now - began < .seconds(150))
        // The moments were spread: some runs were stopped before the report, some after.
        #expect(outcomes.contains { !$0.moment.contains("dev: done") && !$0.moment.contains("press Ctrl-C") })
        #expect(outcomes.contains { $0.moment.contains("press Ctrl-C") })
        // No initdb backend killed mid-way left its System V interlock segment (the
        // watchdog removes those its stopped processes made). Read twice, a second
        // apart: another suite's server may not have attached a segment it just made.
        let systemVLeft = unattachedSystemVSegments().subtracting(systemVBefore)
        if !systemVLeft.isEmpty { sleep(1) }
        #expect(systemVLeft.intersection(unattachedSystemVSegments()).isEmpty,
                "System V segments left: \(systemVLeft.sorted())")
        // Nor its POSIX segments: initdb's backends keep theirs in the data directory
        // (`InitdbShim`), every trial here runs initdb (no template cache), and
        // many of them end during it.
        let posixLeft = unmappedPosixSegments().subtracting(posixBefore)
        if !posixLeft.isEmpty { sleep(1) }
        #expect(posixLeft.intersection(unmappedPosixSegments()).isEmpty, "/dev/shm segments left: \(posixLeft.sorted())")
    }

    @Test func aReaderThatGoesAwayLeavesNothing() throws {
        // `pgwarden dev | head -2`: the pipe closes after two lines.
        let base = try makeBase()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let process = Process()
        process.executableURL = try PgwardenCLI.executable.get()
        process.arguments = ["dev"]
        process.environment = PgwardenCLI.cleanEnvironment(["PGWARDEN_TMPDIR": base])
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var received = Data()
        while received.filter({ $0 == UInt8(ascii: "\n") }).count < 2 {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        try pipe.fileHandleForReading.close()
        process.waitUntilExitPromptly()
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("server: PostgreSQL"))
        let left = settle(base)
        #expect(left.processes.isEmpty && left.files.isEmpty, "\(left)")
    }

    @Test func killMinusNineOfDevStopsTheServerAndRemovesItsFiles() throws {
        // No handler runs on SIGKILL: the watchdog alone removes the server and its files.
        let base = try makeBase()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let running = try PgwardenCLI.start(
            ["dev", "--keep"], environment: PgwardenCLI.cleanEnvironment(["PGWARDEN_TMPDIR": base]), directory: root)
        let url = PgwardenCLI.waitFor(seconds: 60) { () -> String? in
            output(running).split(separator: "\n").first { $0.hasPrefix("URL: ") }.map { String($0.dropFirst(5)) }
        }
        let settings = try ConnectionSettings(try #require(url))
        #expect(try Connection(settings).query("select 1").scalar == "1")
        #expect(!processes(under: base).isEmpty)
        kill(running.process.processIdentifier, SIGKILL)
        _ = running.wait()
        let left = settle(base)
        #expect(left.processes.isEmpty && left.files.isEmpty, "\(left)")
        #expect(throws: PGError.self) { try Connection(settings) }
    }
}
