import Foundation
import WardenPostgres

/// A connection opened on another thread while the command reads and checks its input
/// files: the server starts the session (its process, the authentication, the
/// catalog's first reads) while the plan is parsed (issue 18: about 2.5 ms of Electric
/// Ride's run of 130 ms on the local socket).
///
/// Nothing but the start-up is sent before `connection()` is called, so input that is
/// wrong still stops the command before anything reaches the server, and with the same
/// error as before: a connection that fails is reported only when it is asked for.
final class ConnectionInBackground: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written once by the connecting thread before `finished` is signalled, read only
    /// after waiting for it.
    private var result: Result<Connection, any Error>?

    init(_ settings: ConnectionSettings) {
        let thread = Thread { [self] in
            result = Result { try Connection(settings) }
            finished.signal()
        }
        thread.name = "pgwarden connect"
        thread.start()
    }

    /// The connection, once open (waits for it); throws what opening it threw.
    func connection() throws -> Connection {
        finished.wait()
        finished.signal()  // a second call returns the same outcome
        guard let result else { preconditionFailure("the connecting thread signalled without a result") }
        return try result.get()
    }
}
