/// The API was called in a state it does not accept: a programming error of the
/// caller, reported as such (never as a server error). Nothing was sent to the server.
public struct APIMisuse: WardenError, Equatable, Sendable {
    /// What was wrong, and what to do instead.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var category: ErrorCategory { .misuse }
    public var description: String { message }
}
