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
                guard let open = begin, !added.isEmpty else { continue }
                let later = section.statements[(index + 1)...].map { $0.text.lowercased() }
                guard added.contains(where: { value in later.contains { $0.contains(value) } }) else { continue }
                func line(_ statement: Int) -> Int {
                    source.location(ofOffset: section.startOffset + section.statements[statement].range.lowerBound).line
                }
                return (line(open), line(index))
            default:
                if begin != nil, let value = addedValue(statement) { added.append(value) }
            }
        }
        return nil
    }

    /// The quoted literal `'x'` (lowercased) of `ALTER TYPE name ADD VALUE [IF NOT
    /// EXISTS] 'x' ...`, or nil for any other statement.
    static func addedValue(_ statement: SQLStatement) -> String? {
        let keywords = statement.keywords
        guard keywords.count >= 2, keywords[0] == "alter", keywords[1] == "type" else { return nil }
        let text = statement.text.lowercased()
        guard let value = text.range(of: "add value") else { return nil }
        var rest = text[value.upperBound...].drop { $0.isWhitespace }
        if rest.hasPrefix("if not exists") { rest = rest.dropFirst("if not exists".count).drop { $0.isWhitespace } }
        guard rest.first == "'" else { return nil }
        var literal = "'"
        var scalars = rest.dropFirst()
        while let next = scalars.first {
            scalars = scalars.dropFirst()
            literal.append(next)
            if next == "'" {
                guard scalars.first == "'" else { return literal }  // '' is a quote inside
                literal.append("'")
                scalars = scalars.dropFirst()
            }
        }
        return nil
    }
}
