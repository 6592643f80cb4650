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
final class ConnectionInBackground: Sendable {
    private let opening: InBackground<Connection>

    init(_ settings: ConnectionSettings) {
        opening = InBackground(named: "pgwarden connect") { try Connection(settings) }
    }

    /// The connection, once open (waits for it); throws what opening it threw.
    func connection() throws -> Connection { try opening.value() }
}
