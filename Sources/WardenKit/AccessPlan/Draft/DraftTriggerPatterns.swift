/// The text formats a table's triggers refuse rows by (`if new.code !~ '^[A-Z]{3}$' then
/// raise exception ...`), as the checks `DraftCheckedText` tries its candidates against.
/// No candidate met such a format, every insert was refused by the trigger (P0001), and
/// the draft said `insert: none` for every persona (round forty's note).
///
/// Only `new.<column> !~ '<pattern>'` (or `!~*`) with the pattern written out is read,
/// and only a pattern `DraftRegexSample` can make a text for: a made-up text is the
/// point, and a pattern the server could not compile would fail the candidates' query.
enum DraftTriggerPatterns {
    /// Table -> column -> its checks (`(code ~ '^[A-Z]{3}$')`), from `rows` of table and
    /// trigger function body (`DraftCatalog`'s query of triggers).
    static func checks(in rows: [[String?]]) -> [String: [String: [String]]] {
        var found: [String: [String: [String]]] = [:]
        for row in rows {
            guard row.count > 1, let table = row[0], let body = row[1] else { continue }
            for match in body.matches(of: /(?:^|[^\w.])[Nn][Ee][Ww]\.("(?:[^"]|"")+"|[A-Za-z_]\w*)\s*!~(\*?)\s*'((?:[^']|'')*)'/) {
                let written = String(match.output.1)
                // PL/pgSQL folds a bare name to lower case, as SQL does.
                let column = written.hasPrefix("\"") ? DraftOwnership.unquoted(written) : written.lowercased()
                let pattern = String(match.output.3)
                let caseInsensitive = !match.output.2.isEmpty
                guard DraftRegexSample.sample(matching: pattern.replacingOccurrences(of: "''", with: "'"),
                                              caseInsensitive: caseInsensitive) != nil else { continue }
                let check = "(\(DraftOwnership.sqlName(column)) ~\(caseInsensitive ? "*" : "") '\(pattern)')"
                if found[table]?[column]?.contains(check) != true { found[table, default: [:]][column, default: []].append(check) }
            }
        }
        return found
    }
}
