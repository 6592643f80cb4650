/// One SQL statement found in a text: where it is, in Unicode scalar offsets.
///
/// Holds its text as a range of the text it was split from (shared, not copied), so a
/// 50 MB file's statements cost a few words each.
package struct SQLStatement: Equatable, Sendable {
    /// What the statement does to the session, judged from its keywords.
    package let kind: StatementKind
    /// The whole text the statement was split from (shared storage) and, as 32-bit
    /// offsets (texts up to 2 GB), where the statement is: 48 bytes a statement.
    private let base: String
    private let scalars: (start: Int32, end: Int32)
    private let bytes: (start: Int32, end: Int32)
    private let data: (start: Int32, end: Int32)

    /// From the statement's first token to just after its `;` (or its last token).
    package var range: Range<Int> { Int(scalars.start)..<Int(scalars.end) }

    /// For `COPY ... FROM STDIN`: the data rows that follow it in the text, from the
    /// line after the statement up to (not including) the `\.` line that ends them, or
    /// to the end of the text (as psql reads a script). nil for other statements.
    package var copyData: Range<Int>? { data.start < 0 ? nil : Int(data.start)..<Int(data.end) }

    package init(range: Range<Int>, text: String, keywords: [String] = [], copyData: Range<Int>? = nil) {
        self.init(range: range, base: text, bytes: 0..<text.utf8.count, kind: StatementKind(keywords: keywords),
                  copyData: copyData)
    }

    /// `bytes` are UTF-8 offsets in `base`.
    init(range: Range<Int>, base: String, bytes: Range<Int>, kind: StatementKind, copyData: Range<Int>?) {
        self.kind = kind
        self.base = base
        scalars = (Int32(clamping: range.lowerBound), Int32(clamping: range.upperBound))
        self.bytes = (Int32(clamping: bytes.lowerBound), Int32(clamping: bytes.upperBound))
        data = copyData.map { (Int32(clamping: $0.lowerBound), Int32(clamping: $0.upperBound)) } ?? (-1, -1)
    }

    /// The statement's text over `range`.
    package var text: String { SourceText.slice(base[...], bytes: Int(bytes.start)..<Int(bytes.end)) }

    /// Its first words, lowercased, with comments and quoted text skipped
    /// (`rollback /* to */;` is `["rollback"]`): what `kind` is judged from. For COPY,
    /// the words outside parentheses.
    package var keywords: [String] { StatementSplitter.firstKeywords(text) }

    package static func == (left: SQLStatement, right: SQLStatement) -> Bool {
        left.range == right.range && left.kind == right.kind && left.copyData == right.copyData
            && left.text == right.text
    }
}
