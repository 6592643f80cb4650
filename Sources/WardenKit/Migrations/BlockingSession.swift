import Foundation
import WardenPostgres

/// A session that holds a lock a migration waits for (from `pg_blocking_pids`).
public struct BlockingSession: Equatable, Sendable, CustomStringConvertible {
    public let pid: Int
    public let applicationName: String
    /// `active`, `idle in transaction`, ...
    public let state: String
    /// When its current (or last) query started, as the server prints it.
    public let queryStart: String
    /// The first line of its current (or last) query.
    public let query: String

    public init(pid: Int, applicationName: String, state: String, queryStart: String, query: String) {
        self.pid = pid
        self.applicationName = applicationName
        self.state = state
        self.queryStart = queryStart
        self.query = query
    }

    public var description: String {
        let application = applicationName.isEmpty ? "no application name" : "application \(applicationName)"
        return "pid \(pid) (\(application), \(state), query started \(queryStart)): \(query)"
    }

    /// The sessions blocking `pid`, read from `pg_stat_activity`.
    static func blocking(_ pid: Int, on connection: Connection) throws -> [BlockingSession] {
        let result = try connection.query(
            """
            select pid, coalesce(application_name, ''), coalesce(state, ''),
                   coalesce(to_char(query_start at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"'), ''),
                   coalesce(split_part(ltrim(query, E' \\t\\n'), E'\\n', 1), '')
            from pg_stat_activity where pid = any(pg_blocking_pids(\(String(pid))::int)) order by pid
            """)
        return result.rows.map { row in
            BlockingSession(
                pid: Int(row[0] ?? "") ?? 0, applicationName: row[1] ?? "", state: row[2] ?? "",
                queryStart: row[3] ?? "", query: row[4] ?? "")
        }
    }
}

/// Polls, on a connection of its own and a thread of its own, which sessions block a
/// migration's session, and remembers the last ones it saw. Starts polling only after
/// `delay`, so a quick statement costs no connection.
package final class BlockerWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var seen: [BlockingSession] = []
    private let wake = DispatchSemaphore(value: 0)

    init(settings: ConnectionSettings, pid: Int, delay: Duration, interval: Duration = .milliseconds(100)) {
        let thread = Thread { [self] in
            _ = wake.wait(timeout: .now() + delay.inSeconds)
            guard !isStopped, let connection = try? Connection(settings) else { return }
            _ = try? connection.execute("set application_name = 'pgwarden blocker watch'")
            while !isStopped {
                if let sessions = try? BlockingSession.blocking(pid, on: connection), !sessions.isEmpty {
                    lock.lock()
                    seen = sessions
                    lock.unlock()
                }
                _ = wake.wait(timeout: .now() + interval.inSeconds)
            }
        }
        thread.start()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Stops watching (the thread closes its connection and ends on its own);
    /// returns the blocking sessions last seen (empty: none seen).
    public func stop() -> [BlockingSession] {
        lock.lock()
        defer { lock.unlock() }
        stopped = true
        wake.signal()
        return seen
    }
}
