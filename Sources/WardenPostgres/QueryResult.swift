/// The outcome of one statement: its command tag, and for queries the rows as text.
///
/// Values are copied out of libpq's `PGresult` when the result is made, so a
/// `QueryResult` owns no C memory.
public struct QueryResult: Sendable {
    /// The command tag, e.g. `INSERT 0 1`, `SELECT 3`, `CREATE TABLE`.
    public var commandTag: String
    /// Column names in order; empty for commands that return no rows.
    public var columns: [String]
    /// Each row's values in text format; `nil` is SQL NULL.
    public var rows: [[String?]]
    /// Rows affected by INSERT, UPDATE, DELETE, MERGE, SELECT, MOVE, FETCH or COPY.
    public var affectedRows: Int?

    public init(commandTag: String, columns: [String], rows: [[String?]], affectedRows: Int?) {
        self.commandTag = commandTag
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
    }

    /// The value of the first column of the first row (nil if absent or NULL).
    public var scalar: String? { rows.first?.first ?? nil }

    /// The index of a column by name.
    public func columnIndex(_ name: String) -> Int? { columns.firstIndex(of: name) }

    /// Rows as dictionaries keyed by column name (NULLs are absent keys).
    public var namedRows: [[String: String]] {
        rows.map { row in
            var named: [String: String] = [:]
            for (index, value) in row.enumerated() where value != nil {
                named[columns[index]] = value
            }
            return named
        }
    }
}
