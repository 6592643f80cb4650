import Foundation

/// Runs cleanup work when the process is interrupted (Ctrl-C, SIGTERM, SIGHUP), then
/// exits with 128 + the signal number, so an ephemeral server never outlives us.
public final class InterruptHandler: @unchecked Sendable {
    public static let shared = InterruptHandler()

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

    /// Registers `cleanup`; returns a token for `remove(_:)`. Installs the signal
    /// handlers on first use.
    @discardableResult
    public func onInterrupt(_ cleanup: @escaping () -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if sources.isEmpty { installLocked() }
        nextToken += 1
        cleanups[nextToken] = cleanup
        return nextToken
    }

    /// Unregisters a cleanup that is no longer needed.
    public func remove(_ token: Int) {
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
        FileHandle.standardError.write(Data("\npgwarden: interrupted, cleaning up\n".utf8))
        work.forEach { $0() }
        exit(128 + signalNumber)
    }
}
