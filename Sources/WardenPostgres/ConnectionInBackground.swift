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
public final class ConnectionInBackground: Sendable {
    private let opening: InBackground<Connection>

    public init(_ settings: ConnectionSettings) {
        opening = InBackground(named: "pgwarden connect") { try Connection(settings) }
    }

    /// The connection, once open (waits for it); throws what opening it threw. Every
    /// call has the same outcome.
    public func connection() throws -> Connection { try opening.value() }
}
