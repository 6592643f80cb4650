import Foundation

/// A local server started on first use and stopped when the process exits, for
/// everything of one process that shares it (scratch databases, a test suite). A
/// failed start is remembered and rethrown to every later caller.
package final class SharedLocalCluster: @unchecked Sendable {
    /// The server that `ScratchDatabase`s share.
    package static let scratch = SharedLocalCluster()

    private let lock = NSLock()
    private var started: Result<LocalCluster, Error>?

    package init() {}

    /// The running server (started now if needed).
    package func cluster() throws -> LocalCluster {
        lock.lock()
        defer { lock.unlock() }
        if let started { return try started.get() }
        let result = Result { try LocalCluster.start() }
        started = result
        if case .success(let cluster) = result { Self.stopAtExit(cluster) }
        return try result.get()
    }

    private static let exitLock = NSLock()
    nonisolated(unsafe) private static var toStop: [LocalCluster] = []

    private static func stopAtExit(_ cluster: LocalCluster) {
        exitLock.lock()
        defer { exitLock.unlock() }
        if toStop.isEmpty { atexit { SharedLocalCluster.toStop.forEach { $0.stop() } } }
        toStop.append(cluster)
    }
}
