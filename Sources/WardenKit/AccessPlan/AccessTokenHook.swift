/// A Postgres function the auth server calls at every sign-in to customise the
/// access token (Supabase's "custom access token hook", `pg-functions://` URIs only).
public struct AccessTokenHook: Sendable, Equatable {
    public var schema: String
    public var function: String
    /// Where it was named (`file:line`), for messages.
    public var origin: String

    public init(schema: String, function: String, origin: String) {
        self.schema = schema
        self.function = function
        self.origin = origin
    }

    public var qualifiedName: String { "\(schema).\(function)" }
}
