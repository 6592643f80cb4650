import Foundation

extension UUID: SQLBindable { public var sqlText: String { uuidString.lowercased() } }

extension Connection {
    /// Runs one statement built with `SQL` interpolation, its values bound as parameters.
    ///
    /// This is the one safe way in: `query("select * from t where id = \(id)")` binds
    /// `id` as `$1`. The raw-text entries carry `unsafe` in their labels
    /// (`query(unsafeSQL:parameters:)`, `execute(unsafeScript:)`,
    /// `execute(unsafeStatement:)`, `execute(unsafeStatements:)`,
    /// `copyIn(unsafeStatement:data:)`), so the compiler never picks them for a literal.
    @discardableResult
    public func query(_ sql: SQL) throws -> QueryResult {
        try query(unsafeSQL: sql.text, parameters: sql.bindings)
    }

    /// Runs SQL built with `SQL` interpolation. With no bound values the text may hold
    /// many statements (simple query protocol, one result per statement, as
    /// `execute(unsafeScript:)`); with bound values it is exactly one statement (a text
    /// holding two is refused by the server) and its values are bound, never spliced.
    @discardableResult
    public func execute(_ sql: SQL) throws -> [QueryResult] {
        if sql.bindings.isEmpty { return try execute(unsafeScript: sql.text) }
        return [try query(sql)]
    }

    /// The first row of a query, or nil when it returned none.
    public func fetchOne(_ sql: SQL) throws -> QueryResult.Row? {
        try query(sql).typedRows.first
    }

    /// The first column of the first row as a Boolean (false when absent or NULL).
    public func fetchBool(_ sql: SQL) throws -> Bool {
        try fetchOne(sql)?.bool(0) ?? false
    }
}
