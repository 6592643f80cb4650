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
/// For a column in a unique key, the candidate must pass for each persona's variant too
/// (`draft1`, `draft2`: `head || n || tail`), which the setup gives each persona.
enum DraftCheckedText {
    /// One candidate: `single` for a sample, `head || n || tail` for persona n's setup row.
    struct Candidate: Equatable {
        var single: String
        var head: String
        var tail: String

        func numbered(_ n: Int) -> String { head + String(n) + tail }
    }

    /// The drafted text first (kept when it passes), then shapes checks often ask for,
    /// then a text made for each pattern `checks` match the column with (`sha256 ~
    /// '^[0-9a-f]{64}$'`: no fixed shape met it, every upload was refused, and a table
    /// every visitor reads showed "no dangers found"; round forty).
    static func candidates(for column: String, checks: [String]) -> [Candidate] {
        candidates(for: column) + checks.flatMap(patterns(in:)).compactMap { pattern in
            DraftRegexSample.sample(matching: pattern.text, caseInsensitive: pattern.caseInsensitive)
                .map { Candidate(single: $0.single, head: $0.head, tail: $0.tail) }
        }
    }

    /// The patterns a check matches text with (`~ '...'`, `~* '...'`, as pg_get_expr
    /// writes them), quotes undoubled; not `!~`, nor LIKE's `~~`.
    static func patterns(in check: String) -> [(text: String, caseInsensitive: Bool)] {
        check.matches(of: /(?:^|[^!~])~(?!~)(\*?)\s*'((?:[^']|'')*)'/).map { match in
            (String(match.output.2).replacingOccurrences(of: "''", with: "'"), !match.output.1.isEmpty)
        }
    }

    /// The drafted text first (kept when it passes), then shapes checks often ask for.
    static func candidates(for column: String) -> [Candidate] {
        let word = column.lowercased().filter { ($0.isLetter || $0.isNumber) && $0.isASCII }
        return [
            Candidate(single: "Draft \(column)", head: "Draft \(column) ", tail: ""),
            Candidate(single: "draft", head: "draft", tail: ""),
            Candidate(single: "draft-\(word)", head: "draft-\(word)-", tail: ""),
            Candidate(single: "draft@example.com", head: "draft", tail: "@example.com"),
            Candidate(single: "https://example.com/draft", head: "https://example.com/draft", tail: ""),
            Candidate(single: "+15555550100", head: "+1555555010", tail: ""),
            Candidate(single: "DRAFT", head: "DRAFT", tail: ""),
            Candidate(single: "Draft", head: "Draft", tail: ""),
            // Short codes (`code ~ '^[A-Z]{3}$'`, a six-digit pin).
            Candidate(single: "DRA", head: "DR", tail: ""),
            Candidate(single: "dra", head: "dr", tail: ""),
            Candidate(single: "123456", head: "12345", tail: ""),
            // A month or a day as text (`month ~ '^\d{4}-\d{2}$'`, a usage counter's key).
            Candidate(single: "2025-01", head: "2025-0", tail: ""),
            Candidate(single: "2025-01-01", head: "2025-01-0", tail: ""),
            // A school or financial year (`school_year ~ '^\d{4}-\d{4}$'`: no class could
            // be made, and 684 of 1233 probes went unprobed; round thirty-nine).
            Candidate(single: "2025-2026", head: "2025-202", tail: ""),
            Candidate(single: "2025/2026", head: "2025/202", tail: ""),
        ]
    }

    /// Table -> column -> the first candidate its checks accept, for the string columns
    /// with checks that list no values; empty when the server could not evaluate them.
    static func read(_ connection: Connection, checks: [(table: String, column: DraftCatalog.Column, checks: [String])])
        -> [String: [String: Candidate]]
    {
        var offered: [String: [String: [Candidate]]] = [:]
        let rows: [SQL] = checks.compactMap { entry in
            let column = entry.column
            let candidates = candidates(for: column.name, checks: entry.checks).filter { candidate in
                column.maxLength.map { candidate.numbered(2).count <= $0 && candidate.single.count <= $0 } ?? true
            }
            guard !candidates.isEmpty, !entry.checks.isEmpty else { return nil }
            offered[entry.table, default: [:]][column.name] = candidates
            let variants = { (n: Int) in candidates.map { column.unique ? $0.numbered(n) : $0.single } }
            let passes = SQL.joined(entry.checks.map { "(\(raw: $0)) is not false" }, separator: " and ")
            return """
                select \(entry.table)::text, \(column.name)::text,
                       (select u.i::text
                        from unnest(\(array: candidates.map(\.single))::text[], \(array: variants(1))::text[],
                                    \(array: variants(2))::text[]) with ordinality as u(c, c1, c2, i)
                        where (select bool_and(\(passes))
                               from (select v.x as \(identifier: column.name) from unnest(array[u.c, u.c1, u.c2]) as v(x)) as draft_row)
                        order by u.i limit 1)
                """
        }
        return DraftCheckedChoice.read(connection, rows: rows, offered: offered)
    }
}
