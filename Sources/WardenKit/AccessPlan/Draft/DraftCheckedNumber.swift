import Foundation
import WardenPostgres

/// A number that a numeric column's own check constraints accept, for the draft's
/// samples and setup rows: 1 breaks `check (systolic between 40 and 300)`, every setup
/// row is refused, and the table's cells go unprobed (a health log's blood pressure
/// readings, 18 cells, round thirty-four).
///
/// As `DraftCheckedText` does for text, the server tries the candidates: 1 first (kept
/// when it passes), then each whole number the checks name, and one above it.
enum DraftCheckedNumber {
    /// 1, then the whole numbers in `checks` (pg_get_expr text) and each plus one.
    static func candidates(in checks: [String]) -> [String] {
        var found = ["1"]
        for number in checks.flatMap(wholeNumbers) {
            for value in [number, number + 1] where !found.contains(String(value)) { found.append(String(value)) }
        }
        return found
    }

    /// The whole numbers written in `text`: runs of digits not part of a name or of a
    /// decimal (`(level >= 40)`, `-5`; not `x2` or `0.5`), with a minus sign before them.
    static func wholeNumbers(in text: String) -> [Int] {
        let characters = Array(text)
        func joins(_ character: Character?) -> Bool {
            guard let character else { return false }
            return character.isLetter || character.isNumber || character == "_" || character == "." || character == "$"
        }
        var numbers: [Int] = []
        var index = 0
        while index < characters.count {
            guard characters[index].isASCII, characters[index].isNumber, !joins(index > 0 ? characters[index - 1] : nil) else {
                index += 1
                continue
            }
            var end = index
            while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
            if !joins(end < characters.count ? characters[end] : nil), end - index <= 15, let value = Int(String(characters[index..<end])) {
                numbers.append(index > 0 && characters[index - 1] == "-" ? -value : value)
            }
            index = end
        }
        return numbers
    }

    /// Table -> column -> the first candidate its checks accept, for numeric columns
    /// with checks that 1 may break; empty when the server could not evaluate them.
    static func read(_ connection: Connection, checks: [(table: String, column: DraftCatalog.Column, checks: [String])])
        -> [String: [String: String]]
    {
        var offered: [String: [String: [String]]] = [:]
        let rows: [SQL] = checks.compactMap { entry in
            let candidates = candidates(in: entry.checks)
            guard candidates.count > 1 else { return nil }
            offered[entry.table, default: [:]][entry.column.name] = candidates
            let passes = SQL.joined(entry.checks.map { "(\(raw: $0)) is not false" }, separator: " and ")
            let type = SQL.quoteIdentifier(entry.column.typeName)
            return """
                select \(entry.table)::text, \(entry.column.name)::text,
                       (select u.i::text from unnest(\(array: candidates)::text[]) with ordinality as u(c, i)
                        where (select \(passes) from (select u.c::pg_catalog.\(raw: type) as \(identifier: entry.column.name)) as draft_row)
                        order by u.i limit 1)
                """
        }
        return DraftCheckedChoice.read(connection, rows: rows, offered: offered)
    }
}
