import Foundation

/// A connection opened on another thread while the caller goes on (issue 18): the
/// command reads and checks its input files while the server starts the session (its
/// process, the authentication, the catalog's first reads); an access-plan run's
/// second session (`CatalogReadsInBackground`) is ready when the run starts.
///
/// Nothing but the start-up is sent before `connection()` is called, so input that is
/// wrong still stops the command before anything reaches the server, and with the same
/// error as before: a connection that fails is reported only when it is asked for. One
/// never asked for is closed when this is released.
public final class ConnectionInBackground: @unchecked Sendable {
    private let opened = DispatchSemaphore(value: 0)
    /// Written once by the opening thread before `opened` is signalled, read only after
    /// waiting for it.
    private var outcome: Result<Connection, any Error>?

    public init(_ settings: ConnectionSettings) {
        let thread = Thread { [self] in
            outcome = Result { try Connection(settings) }
            opened.signal()
        }
        thread.name = "pgwarden connect"
        thread.start()
    }

    /// The connection, once open (waits for it); throws what opening it threw. Every
    /// call has the same outcome.
    public func connection() throws -> Connection {
        opened.wait()
        opened.signal()
        guard let outcome else { preconditionFailure("the opening thread signalled without an outcome") }
        return try outcome.get()
    }
}
