import Foundation
import WardenPostgres

/// A text value that a string column's own check constraints accept, for the draft's
/// samples and setup rows: `'Draft slug'` breaks `slug ~ '^[a-z0-9]+(?:-[a-z0-9]+)*$'`
/// (GrainMuse/frontend's `academy_programs`), the setup row is refused, and every table
/// that references it is left without rows (62 cells unobserved there).
///
/// Candidates are tried by the server itself: each column's checks (pg_get_expr text of
/// the constraints on that column alone) are evaluated over a one-row relation whose
/// column of that name holds the candidate, all columns in one statement, rolled back.
/// A check that passes on NULL (unknown) passes here too, as PostgreSQL's CHECK does.
enum DraftCheckedText {
    /// The drafted text first (kept when it passes), then shapes checks often ask for.
    static func candidates(for column: String) -> [String] {
        ["Draft \(column)", "draft", "draft-\(column.lowercased().filter { $0.isLetter || $0.isNumber })",
         "draft@example.com", "https://example.com/draft", "+15555550100", "DRAFT", "Draft"]
    }

    /// Table -> column -> the first candidate its checks accept, for the string columns
    /// with checks that list no values; empty when the server could not evaluate them.
    static func read(_ connection: Connection, checks: [(table: String, column: DraftCatalog.Column, checks: [String])])
        -> [String: [String: String]]
    {
        let rows: [SQL] = checks.compactMap { entry in
            let candidates = candidates(for: entry.column.name).filter { text in entry.column.maxLength.map { text.count <= $0 } ?? true }
            guard !candidates.isEmpty, !entry.checks.isEmpty else { return nil }
            let passes = SQL.joined(entry.checks.map { "(\(raw: $0)) is not false" }, separator: " and ")
            return """
                select \(entry.table)::text, \(entry.column.name)::text,
                       (select u.c from unnest(\(array: candidates)::text[]) with ordinality as u(c, i)
                        where (select \(passes) from (select u.c as \(identifier: entry.column.name)) as draft_row)
                        order by u.i limit 1)
                """
        }
        guard !rows.isEmpty,
              let result = try? CatalogReads.run(connection, [SQL.joined(rows, separator: " union all ")]).first
        else { return [:] }
        var chosen: [String: [String: String]] = [:]
        for row in result.rows {
            if let table = row[0], let column = row[1], let value = row[2] { chosen[table, default: [:]][column] = value }
        }
        return chosen
    }
}
