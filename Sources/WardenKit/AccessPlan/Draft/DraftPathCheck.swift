import Foundation

/// A check that a text column begins with another column's value, as a table keeping a
/// Storage path writes it (`check (image_path like author_id::text || '/%')`, or
/// `starts_with(image_path, author_id::text || '/')`): the sample's `'Draft image_path'`
/// was refused, every setup row with it, and a photo app's posts and likes went
/// unprobed (round thirty-five). Such a column's value is made of the other's.
enum DraftPathCheck {
    /// The other column and the text after its value (a LIKE pattern's `%` and `_` made
    /// letters), from `column`'s checks on it and one other column; nil when none is of
    /// that shape.
    static func prefix(of column: DraftCatalog.Column) -> (other: String, rest: String)? {
        let name = NSRegularExpression.escapedPattern(for: column.name)
        let operand = #"\(*\s*"?([A-Za-z_][\w$]*)"?\s*\)*(?:::\s*text)?\s*\|\|\s*'((?:[^']|'')*)'(?:::text)?\s*\)*"#
        let shapes = [
            (#"^\(*\s*"?"# + name + #""?\s*~~\s*"# + operand + #"$"#, true),
            (#"^\(*\s*starts_with\(\s*"?"# + name + #""?\s*,\s*"# + operand + #"\)*$"#, false),
        ]
        for check in column.pairChecks {
            for (pattern, isLike) in shapes {
                guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
                      let match = regex.firstMatch(in: check, range: NSRange(check.startIndex..., in: check)),
                      let other = Range(match.range(at: 1), in: check), let rest = Range(match.range(at: 2), in: check),
                      String(check[other]) != column.name
                else { continue }
                var text = String(check[rest]).replacingOccurrences(of: "''", with: "'")
                if isLike { text = text.replacingOccurrences(of: "%", with: "draft").replacingOccurrences(of: "_", with: "x") }
                return (String(check[other]), text)
            }
        }
        return nil
    }

    /// `sample` with each column of `columns` that has such a check given the other
    /// column's value and the rest (`(auth.uid())::text || '/draft'`), where the sample
    /// names the other column.
    static func applied(to sample: [(column: String, expression: String)], columns: [DraftCatalog.Column])
        -> [(column: String, expression: String)]
    {
        sample.map { entry in
            guard let column = columns.first(where: { $0.name == entry.column }), column.category == "S",
                  let (other, rest) = prefix(of: column),
                  let value = sample.first(where: { $0.column == other })?.expression else { return entry }
            return (entry.column, "(\(value))::text || \(DraftOwnership.literal(rest))")
        }
    }
}
