import Foundation

/// Runs cleanup work when the process is interrupted (Ctrl-C, SIGTERM, SIGHUP), then
/// exits with 128 + the signal number. Lives in the CLI: the library never handles
/// signals. SIGPIPE keeps its default action (a reader such as `head` that goes away
/// ends pgwarden at its next write); an ephemeral server's watchdog removes the server
/// and its directory whatever ends the process, so this handler is only the fast path.
final class InterruptHandler: @unchecked Sendable {
    static let shared = InterruptHandler()

    private let lock = NSLock()
    private var cleanups: [Int: () -> Void] = [:]
    private var nextToken = 0
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "pgwarden.interrupts")
    private var signalReceived: Int32?

    /// The signal that interrupted the process, once one has (set before any cleanup
    /// runs), so an error caused by the cleanup can exit with the same status.
    public var receivedSignal: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return signalReceived
    }

    private init() {}

    /// Installs the signal handlers now (also done by the first `onInterrupt`).
    func install() {
        lock.lock()
        defer { lock.unlock() }
        if sources.isEmpty { installLocked() }
    }

    /// Registers `cleanup`; returns a token for `remove(_:)`. Installs the signal
    /// handlers on first use.
    @discardableResult
    func onInterrupt(_ cleanup: @escaping () -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if sources.isEmpty { installLocked() }
        nextToken += 1
        cleanups[nextToken] = cleanup
        return nextToken
    }

    /// Unregisters a cleanup that is no longer needed.
    func remove(_ token: Int) {
        lock.lock()
        cleanups[token] = nil
        lock.unlock()
    }

    private func installLocked() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [weak self] in self?.fire(signalNumber) }
            source.resume()
            sources.append(source)
        }
    }

    private func fire(_ signalNumber: Int32) {
        lock.lock()
        signalReceived = signalReceived ?? signalNumber
        let work = cleanups.sorted { $0.key > $1.key }.map(\.value)
        cleanups = [:]
        lock.unlock()
        try? FileHandle.standardError.write(contentsOf: Data("\npgwarden: interrupted, cleaning up\n".utf8))
        work.forEach { $0() }
        exit(128 + signalNumber)
    }
}
