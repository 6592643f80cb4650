import Foundation

/// The text values a check constraint of one column lists: `status in ('active',
/// 'canceled')` or `status = 'active'`, as `pg_get_expr` prints them. Any other
/// check (a range, `or ... is null`, or a function of the column such as
/// `jsonb_typeof(payload) = 'object'`, whose literals are no values of the column) lists nothing.
enum DraftCheckList {
    private static let literal = try? NSRegularExpression(pattern: #"'((?:[^']|'')*)'::[a-z ]+"#)

    /// The check with its literals as `L` and its parentheses gone, comparing the column
    /// itself (bare or quoted as `pg_get_expr` spells it, possibly cast) with the literals.
    private static func shape(comparing column: String) -> NSRegularExpression? {
        let spellings = Set([column, SQL.quoteIdentifier(column)]).map(NSRegularExpression.escapedPattern(for:))
        // A literal may be cast twice: `supabase db dump` writes a varchar column's list
        // as `= ANY (ARRAY[('user'::character varying)::text, ...])`, which read as no
        // list, and the setup's 'Draft role' broke every chat message (round thirty-nine).
        let value = #"L(::[a-z ]+)?"#
        return try? NSRegularExpression(
            pattern: #"^("# + spellings.joined(separator: "|") + #")(::[a-z ]+)? = (ANY ARRAY\["# + value + "(, " + value
                + #")*\](::[a-z ]+\[\])?|"# + value + ")$")
    }

    static func values(_ check: String, column: String) -> [String]? {
        guard let literal, let shape = shape(comparing: column) else { return nil }
        let range = NSRange(check.startIndex..., in: check)
        let values = literal.matches(in: check, range: range).compactMap { match in
            Range(match.range(at: 1), in: check).map { check[$0].replacingOccurrences(of: "''", with: "'") }
        }
        let rest = literal.stringByReplacingMatches(in: check, range: range, withTemplate: "L")
            .replacingOccurrences(of: "(", with: "").replacingOccurrences(of: ")", with: "")
        guard !values.isEmpty, shape.firstMatch(in: rest, range: NSRange(rest.startIndex..., in: rest)) != nil else { return nil }
        return values
    }

    /// Whether a check of a boolean `column` allows true alone: `check (id)`, `check (id =
    /// true)`, `check (id is true)` (a single-row table keyed by a boolean: the draft's
    /// `false` broke it, and the table got no rows).
    static func requiresTrue(_ checks: [String], column: String) -> Bool {
        let spellings = Set([column, SQL.quoteIdentifier(column)])
        return checks.contains { check in
            let bare = check.replacingOccurrences(of: "(", with: "").replacingOccurrences(of: ")", with: "")
                .trimmingCharacters(in: .whitespaces)
            return spellings.contains { bare == $0 || bare == "\($0) = true" || bare == "\($0) IS TRUE" }
        }
    }

    /// The values every list of `checks` on `column` allows, in the first list's order; nil when none lists any.
    static func allowed(by checks: [String], column: String) -> [String]? {
        let lists = checks.compactMap { values($0, column: column) }
        guard let first = lists.first else { return nil }
        return first.filter { value in lists.allSatisfy { $0.contains(value) } }
    }
}
