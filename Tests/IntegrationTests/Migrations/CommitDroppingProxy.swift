import TestSupport
import WardenKit
import Foundation

/// A Unix-socket proxy in front of the test server that loses the server's answer to
/// one COMMIT: once the client has sent an insert or delete of a `pgwarden.schema_migrations`
/// row, the next `commit` reaches the server, but the proxy drops the reply and
/// closes the client's connection, as a network failure at that moment would.
/// Later connections pass through, unless `refuseAfterDrop` (the server "gone").
final class CommitDroppingProxy: @unchecked Sendable {
    let directory: String
    let port: Int
    private let upstream: String
    private let refuseAfterDrop: Bool
    private let lock = NSLock()
    private var dropped = false
    private var listener: Int32 = -1

    init(upstreamDirectory: String, port: Int, refuseAfterDrop: Bool = false) throws {
        directory = NSTemporaryDirectory() + "pgwarden-proxy-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.port = port
        self.refuseAfterDrop = refuseAfterDrop
        upstream = "\(upstreamDirectory)/.s.PGSQL.\(port)"
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0, Self.withAddress("\(directory)/.s.PGSQL.\(port)", { bind(listener, $0, $1) }) == 0,
            listen(listener, 16) == 0
        else { throw POSIXError(.EADDRINUSE) }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting connections and removes the socket's folder.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        try? FileManager.default.removeItem(atPath: directory)
    }

    var hasDropped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return dropped
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            if refuseAfterDrop && hasDropped {
                close(client)
                continue
            }
            let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard Self.withAddress(upstream, { connect(server, $0, $1) }) == 0 else {
                close(client)
                close(server)
                continue
            }
            let session = Session(client: client, server: server)
            Thread.detachNewThread { [self] in pumpClientToServer(session) }
            Thread.detachNewThread { [self] in pumpServerToClient(session) }
        }
    }

    final class Session: @unchecked Sendable {
        let client: Int32
        let server: Int32
        let lock = NSLock()
        var swallowReplies = false
        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }
        var swallowing: Bool {
            lock.lock()
            defer { lock.unlock() }
            return swallowReplies
        }
    }

    static let historyWrites = [Array("insert into pgwarden.schema_migrations".utf8), Array("delete from pgwarden.schema_migrations".utf8)]
    /// `commit` as a simple-protocol Query message, or in an extended-protocol Parse
    /// message of the unnamed statement with no parameter types (pipelined with the
    /// history write).
    static let commitMessages: [[UInt8]] = [
        [0x51, 0, 0, 0, 11] + Array("commit".utf8) + [0],
        [0x50, 0, 0, 0, 14, 0] + Array("commit".utf8) + [0, 0, 0],
    ]

    private func pumpClientToServer(_ session: Session) {
        var armed = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(session.client, &buffer, buffer.count)
            guard count > 0 else { break }
            let chunk = Array(buffer[0..<count])
            if !hasDropped, Self.historyWrites.contains(where: { chunk.contains(subsequence: $0) }) { armed = true }
            if armed, !hasDropped, Self.commitMessages.contains(where: { chunk.contains(subsequence: $0) }) {
                lock.lock()
                dropped = true
                lock.unlock()
                session.lock.lock()
                session.swallowReplies = true
                session.lock.unlock()
                _ = chunk.withUnsafeBytes { write(session.server, $0.baseAddress, count) }
                Thread.sleep(forTimeInterval: 0.5)  // the server commits and answers; the answer is dropped
                break
            }
            _ = chunk.withUnsafeBytes { write(session.server, $0.baseAddress, count) }
        }
        shutdown(session.client, Int32(SHUT_RDWR))
        shutdown(session.server, Int32(SHUT_RDWR))
    }

    private func pumpServerToClient(_ session: Session) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(session.server, &buffer, buffer.count)
            guard count > 0 else { break }
            if session.swallowing { continue }
            _ = buffer.withUnsafeBytes { write(session.client, $0.baseAddress, count) }
        }
        close(session.client)
        close(session.server)
    }

    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, count >= subsequence.count else { return false }
        return (0...(count - subsequence.count)).contains { start in
            self[start..<start + subsequence.count].elementsEqual(subsequence)
        }
    }
}
