import WardenPostgres

/// The server's choice among a column's candidate values (`DraftCheckedText`,
/// `DraftCheckedNumber`): each query row names a table and a column and the 1-based
/// place of the first candidate its checks accept; all rows run as one statement.
enum DraftCheckedChoice {
    /// Table -> column -> the candidate each row of `rows` chose among `offered`; empty
    /// when there is nothing to ask or the server could not evaluate the checks.
    static func read<Candidate>(
        _ connection: Connection, rows: [SQL], offered: [String: [String: [Candidate]]]
    ) -> [String: [String: Candidate]] {
        guard !rows.isEmpty,
              let result = try? CatalogReads.run(connection, [SQL.joined(rows, separator: " union all ")]).first
        else { return [:] }
        var chosen: [String: [String: Candidate]] = [:]
        for row in result.rows {
            guard let table = row[0], let column = row[1], let index = row[2].flatMap({ Int($0) }),
                  let candidates = offered[table]?[column], (1...candidates.count).contains(index) else { continue }
            chosen[table, default: [:]][column] = candidates[index - 1]
        }
        return chosen
    }
}
