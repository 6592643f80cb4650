import Foundation

extension UUID: SQLBindable { public var sqlText: String { uuidString.lowercased() } }

extension Connection {
    /// Runs one statement built with `SQL` interpolation, its values bound as parameters.
    @discardableResult
    public func query(_ sql: SQL) throws -> QueryResult {
        try query(sql.text, sql.bindings)
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
