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
/// session, and remembers the last ones it saw. It watches in periods: `watch(after:)`
/// starts one, which polls only after its delay (a quick statement costs no
/// connection), and `pause()` ends it. One thread and at most one connection serve
/// every period until `stop()`: a run of a thousand migrations starts one thread, not
/// a thousand.
package final class BlockerWatch: @unchecked Sendable {
    private let settings: ConnectionSettings
    private let pid: Int
    private let interval: Duration
    private let lock = NSLock()
    private var stopped = false
    private var started = false
    /// The period being watched: its number and when polling starts.
    private var period: (number: Int, pollFrom: DispatchTime)?
    private var periods = 0
    private var seen: [BlockingSession] = []
    /// The thread waits for a period with no time limit (only then does a new period
    /// wake it: waking it for every quick statement would cost more than the statement).
    private var idle = false
    private let wake = DispatchSemaphore(value: 0)

    init(settings: ConnectionSettings, pid: Int, interval: Duration = .milliseconds(100)) {
        self.settings = settings
        self.pid = pid
        self.interval = interval
    }

    /// A watch with one period started at once (see `watch(after:)`).
    convenience init(settings: ConnectionSettings, pid: Int, delay: Duration, interval: Duration = .milliseconds(100)) {
        self.init(settings: settings, pid: pid, interval: interval)
        watch(after: delay)
    }

    /// Starts a period: polls after `delay`, until `pause()` or `stop()`. What an
    /// earlier period saw is forgotten.
    func watch(after delay: Duration) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        periods += 1
        period = (periods, .now() + delay.inSeconds)
        seen = []
        if !started {
            started = true
            Thread { [self] in poll() }.start()
        } else if idle {
            idle = false
            wake.signal()
        }
    }

    /// Ends the period; returns the blocking sessions it last saw (empty: none seen).
    @discardableResult
    func pause() -> [BlockingSession] {
        lock.lock()
        defer { lock.unlock() }
        period = nil
        let sessions = seen
        seen = []
        return sessions
    }

    /// Stops watching (the thread closes its connection and ends on its own);
    /// returns the blocking sessions last seen in the period (empty: none seen).
    @discardableResult
    public func stop() -> [BlockingSession] {
        let sessions = pause()
        lock.lock()
        stopped = true
        lock.unlock()
        wake.signal()
        return sessions
    }

    /// What the thread does next; `idle` is set when it is about to wait for a period.
    private var current: (stopped: Bool, period: (number: Int, pollFrom: DispatchTime)?) {
        lock.lock()
        defer { lock.unlock() }
        idle = !stopped && period == nil
        return (stopped, period)
    }

    /// The thread: sleeps between periods, waits out each period's delay, then polls.
    private func poll() {
        var connection: Connection?
        while true {
            let (stopped, period) = current
            if stopped { return }
            guard let period else {
                wake.wait()
                continue
            }
            if DispatchTime.now() < period.pollFrom {
                _ = wake.wait(timeout: period.pollFrom)
                continue
            }
            if connection == nil {
                connection = try? Connection(settings)
                _ = try? connection?.execute("set application_name = 'pgwarden blocker watch'")
            }
            guard let connection else {
                // No second connection: nothing to report for this period.
                lock.lock()
                if self.period?.number == period.number { self.period = nil }
                lock.unlock()
                continue
            }
            if let sessions = try? BlockingSession.blocking(pid, on: connection), !sessions.isEmpty {
                lock.lock()
                if self.period?.number == period.number { seen = sessions }
                lock.unlock()
            }
            _ = wake.wait(timeout: .now() + interval.inSeconds)
        }
    }
}
