/// A file without markers (the Supabase CLI's format) that cannot run atomically:
/// a top-level `BEGIN; ... COMMIT;` pair adds an enum value (`ALTER TYPE ... ADD
/// VALUE 'x'`) and a statement after that COMMIT uses it. PostgreSQL lets a
/// transaction use a new enum value only once it is committed (55P04, "unsafe use of
/// new value"), which is why authors wrap the ADD VALUE in a pair of its own; the
/// Supabase CLI then commits there. pgwarden, which otherwise drops such pairs and
/// runs the file in one transaction, honours that COMMIT instead.
enum EnumValueCommit {
    /// The file lines of the first pair whose COMMIT must be honoured, or nil.
    static func pairToHonour(_ section: MigrationSection, source: SourceText) -> (begin: Int, commit: Int)? {
        var begin: Int?
        var added: [String] = []
        for (index, statement) in section.statements.enumerated() {
            switch statement.kind {
            case .begin:
                begin = index
                added = []
            case .commit:
                defer { begin = nil }
                guard let open = begin, used(added, after: index, in: section.statements) else { continue }
                func line(_ statement: Int) -> Int {
                    source.location(ofOffset: section.startOffset + section.statements[statement].range.lowerBound).line
                }
                return (line(open), line(index))
            default:
                if begin != nil { added += addedValues(statement) }
            }
        }
        return nil
    }

    /// Whether a statement after the one at `index` names one of the values `added`
    /// (`addedValues`: quoted, lowercased).
    static func used(_ added: [String], after index: Int, in statements: [SQLStatement]) -> Bool {
        guard !added.isEmpty else { return false }
        let later = statements[(index + 1)...].map { $0.text.lowercased() }
        return added.contains { value in later.contains { $0.contains(value) } }
    }

    /// The quoted literals `'x'` (lowercased) of every `ALTER TYPE name ADD VALUE [IF
    /// NOT EXISTS] 'x'` in the statement: the statement itself, or a `DO` block that
    /// runs it (projects guard it with `if not exists (select from pg_enum ...)`).
    static func addedValues(_ statement: SQLStatement) -> [String] {
        let text = statement.text.lowercased()
        guard text.contains("alter type") else { return [] }
        var values: [String] = []
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: "add value", range: searchRange) {
            searchRange = found.upperBound..<text.endIndex
            var rest = text[found.upperBound...].drop { $0.isWhitespace }
            if rest.hasPrefix("if not exists") { rest = rest.dropFirst("if not exists".count).drop { $0.isWhitespace } }
            if let literal = quotedLiteral(rest) { values.append(literal) }
        }
        return values
    }

    /// The single-quoted literal `rest` starts with (`''` is a quote inside), or nil.
    static func quotedLiteral(_ rest: Substring) -> String? {
        guard rest.first == "'" else { return nil }
        var literal = "'"
        var scalars = rest.dropFirst()
        while let next = scalars.first {
            scalars = scalars.dropFirst()
            literal.append(next)
            if next == "'" {
                guard scalars.first == "'" else { return literal }
                literal.append("'")
                scalars = scalars.dropFirst()
            }
        }
        return nil
    }
}
