/// Every failure of the client layer: a server error with its diagnostic fields,
/// or a connection or protocol failure reported by libpq.
///
/// `description` never contains a password: connection targets are redacted and
/// messages are scrubbed of the connection's secret before they are stored.
public struct PGError: WardenError, Sendable {
    /// What kind of failure this is.
    public enum Kind: Sendable, Equatable {
        /// The server rejected a statement (it carries a SQLSTATE).
        case server
        /// A connection could not be made, or was lost.
        case connection
        /// The connection string itself is malformed.
        case invalidConnectionString
        /// libpq reported something unexpected (out of memory, protocol state).
        case client
    }

    public var kind: Kind
    /// ERROR, FATAL, PANIC (not localized).
    public var severity: String?
    public var sqlState: SQLState?
    public var message: String
    public var detail: String?
    public var hint: String?
    /// 1-based character offset into `sql` where the server places the error.
    public var position: Int?
    /// Position inside `internalQuery` (e.g. a statement inside a PL/pgSQL body).
    public var internalPosition: Int?
    public var internalQuery: String?
    /// The call stack the server reports (PL/pgSQL function, line, statement).
    public var context: String?
    public var schemaName: String?
    public var tableName: String?
    public var columnName: String?
    public var constraintName: String?
    /// The SQL text that failed, as sent.
    public var sql: String?
    /// For multi-statement text: how many statements completed before this one failed.
    public var completedStatements: Int?

    public init(
        kind: Kind, message: String, sqlState: SQLState? = nil, severity: String? = nil,
        detail: String? = nil, hint: String? = nil, sql: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.severity = severity
        self.detail = detail
        self.hint = hint
        self.sql = sql
    }

    /// A lost or refused connection is `.unavailable`, a malformed connection string
    /// `.invalidSettings`, a cancelled statement (57014 without a timeout) `.interrupted`;
    /// anything else `.sqlFailed`.
    public var category: ErrorCategory {
        switch kind {
        case .connection: return .unavailable
        case .invalidConnectionString: return .invalidSettings
        case .server where sqlState == .queryCanceled && message.contains("user request"): return .interrupted
        case .server, .client: return .sqlFailed
        }
    }

    /// One line: severity, SQLSTATE and message; then detail and hint lines when present.
    public var description: String {
        var head = ""
        if let severity { head += "\(severity): " }
        head += message
        if let sqlState { head += " (SQLSTATE \(sqlState))" }
        var lines = [head]
        if let detail { lines.append("DETAIL: \(detail)") }
        if let hint { lines.append("HINT: \(hint)") }
        return lines.joined(separator: "\n")
    }
}
