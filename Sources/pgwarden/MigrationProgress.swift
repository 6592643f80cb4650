import Foundation
import WardenKit

/// Shows a run's progress. On a terminal, the migration (or seed file) being run and
/// its elapsed time on one redrawn line; otherwise (pipes, CI logs) one plain line per
/// finished migration (seeds are summed up by their caller). Waiting and warnings go
/// to standard error.
final class MigrationProgress: @unchecked Sendable {
    private let interactive: Bool
    private let write: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    private let lock = NSLock()
    private var current: (label: String, start: ContinuousClock.Instant)?
    private var timer: DispatchSourceTimer?
    private let clock = ContinuousClock()

    /// - Parameters:
    ///   - interactive: redraw a live line (standard output is a terminal).
    ///   - write: writes to standard output (text includes its newlines).
    ///   - writeError: writes to standard error.
    init(interactive: Bool, write: @escaping @Sendable (String) -> Void,
                writeError: @escaping @Sendable (String) -> Void)
    {
        self.interactive = interactive
        self.write = write
        self.writeError = writeError
    }

    /// Progress on this process's standard output and error.
    static func standard() -> MigrationProgress {
        MigrationProgress(
            interactive: Terminal.standardOutputIsTerminal,
            write: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// Progress all on standard error, for a command whose standard output is its own
    /// (`plan draft` on a twin writes the plan there).
    static func onStandardError() -> MigrationProgress {
        MigrationProgress(
            interactive: Terminal.standardErrorIsTerminal,
            write: { FileHandle.standardError.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// Handles one event of a run.
    func handle(_ event: MigrationEvent) {
        switch event {
        case .waitingForLock(let timeout):
            let limit = timeout.map { "at most \(MigrationLockWaitFailure.seconds($0))" } ?? "no time limit"
            message("pgwarden: another pgwarden run holds this database's migration lock; waiting (\(limit))\n")
        case .started(let version, let name, let direction):
            guard interactive else { return }
            begin("\(direction == .up ? "applying" : "rolling back") \(version) \(name)")
        case .finished(let version, let name, let direction, let duration):
            let step = MigrationRun.Step(version: version, name: name, direction: direction, duration: duration)
            finish(MigrationRun.line(for: step, dryRun: false))
        case .warning(let text):
            message("pgwarden: warning: \(text)\n")
        case .note(let text):
            note(text)
        }
    }

    /// Handles one event of a seed run: on a terminal, the file being run.
    func handle(_ event: SeedEvent) {
        guard interactive else { return }
        switch event {
        case .started(let file): begin("seeding \(file.relativePath)")
        case .finished: stop()
        }
    }

    /// On a terminal, a live line with the time so far for long work that prints
    /// nothing until it ends (observing a 345-table project took 11 s of silence);
    /// `stop()` clears it. Nothing when not on a terminal.
    func working(on label: String) {
        guard interactive else { return }
        begin(label)
    }

    /// Runs `work` with the live line `label` (`working(on:)`), cleared however it ends.
    func showing<T>(_ label: String, _ work: () throws -> T) rethrows -> T {
        working(on: label)
        defer { stop() }
        return try work()
    }

    /// A note on standard error (`pgwarden: note: ...`).
    func note(_ text: String) {
        message("pgwarden: note: \(text)\n")
    }

    /// Clears a live line left by a run that failed (call before printing the error).
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        stopTimerLocked()
        if current != nil { write("\r\u{1B}[2K") }
        current = nil
    }

    private func begin(_ label: String) {
        lock.lock()
        defer { lock.unlock() }
        current = (label, clock.now)
        drawLocked()
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.redraw() }
        timer.resume()
        self.timer = timer
    }

    private func finish(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        stopTimerLocked()
        write((current != nil ? "\r\u{1B}[2K" : "") + line + "\n")
        current = nil
    }

    private func message(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if current != nil { write("\r\u{1B}[2K") }
        writeError(text)
        drawLocked()
    }

    private func redraw() {
        lock.lock()
        defer { lock.unlock() }
        drawLocked()
    }

    private func drawLocked() {
        guard let current else { return }
        let elapsed = clock.now - current.start
        let tenths = Int(elapsed.components.seconds * 10 + elapsed.components.attoseconds / 100_000_000_000_000_000)
        write("\r\u{1B}[2K\(current.label) ... \(tenths / 10).\(tenths % 10) s")
    }

    private func stopTimerLocked() {
        timer?.cancel()
        timer = nil
    }
}
