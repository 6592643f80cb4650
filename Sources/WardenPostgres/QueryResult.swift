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

extension QueryResult {
    /// One row, with typed access to its text-format values.
    public struct Row: Sendable {
        public let columns: [String]
        public let values: [String?]

        /// The text value of a column by position (nil for NULL or out of range).
        public subscript(_ index: Int) -> String? { index < values.count ? values[index] : nil }

        /// The text value of a column by name.
        public subscript(_ name: String) -> String? { columns.firstIndex(of: name).flatMap { self[$0] } }

        /// A `boolean` column (`t`/`f`); nil for NULL.
        public func bool(_ index: Int) -> Bool? { self[index].map { $0 == "t" || $0 == "true" } }

        /// A `boolean` column by name.
        public func bool(_ name: String) -> Bool? { columns.firstIndex(of: name).flatMap { bool($0) } }

        /// An integer column; nil for NULL or a value that is not an integer.
        public func int(_ index: Int) -> Int? { self[index].flatMap { Int($0) } }

        /// An integer column by name.
        public func int(_ name: String) -> Int? { columns.firstIndex(of: name).flatMap { int($0) } }
    }

    /// The rows with typed accessors.
    public var typedRows: [Row] { rows.map { Row(columns: columns, values: $0) } }
}
