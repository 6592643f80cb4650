/// One SQL statement found in a text: where it is, in Unicode scalar offsets.
///
/// Holds its text as a range of the text it was split from (shared, not copied), so a
/// 50 MB file's statements cost a few words each.
public struct SQLStatement: Equatable, Sendable {
    /// What the statement does to the session, judged from its keywords.
    public let kind: StatementKind
    /// The whole text the statement was split from (shared storage) and, as 32-bit
    /// offsets (texts up to 2 GB), where the statement is: 48 bytes a statement.
    private let base: String
    private let scalars: (start: Int32, end: Int32)
    private let bytes: (start: Int32, end: Int32)
    private let data: (start: Int32, end: Int32)

    /// From the statement's first token to just after its `;` (or its last token).
    public var range: Range<Int> { Int(scalars.start)..<Int(scalars.end) }

    /// For `COPY ... FROM STDIN`: the data rows that follow it in the text, from the
    /// line after the statement up to (not including) the `\.` line that ends them, or
    /// to the end of the text (as psql reads a script). nil for other statements.
    public var copyData: Range<Int>? { data.start < 0 ? nil : Int(data.start)..<Int(data.end) }

    public init(range: Range<Int>, text: String, keywords: [String] = [], copyData: Range<Int>? = nil) {
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
    public var text: String { SourceText.slice(base[...], bytes: Int(bytes.start)..<Int(bytes.end)) }

    /// Its first words, lowercased, with comments and quoted text skipped
    /// (`rollback /* to */;` is `["rollback"]`): what `kind` is judged from. For COPY,
    /// the words outside parentheses.
    public var keywords: [String] { StatementSplitter.firstKeywords(text) }

    public static func == (left: SQLStatement, right: SQLStatement) -> Bool {
        left.range == right.range && left.kind == right.kind && left.copyData == right.copyData
            && left.text == right.text
    }
}

/// Finds statement boundaries the way PostgreSQL (and psql) do, so that the count of
/// completed statements the server reports names the statement that failed, and so a
/// `transaction:false` section can be sent one statement at a time.
///
/// Semicolons do not end a statement inside `'...'`, `E'...'` (backslash escapes),
/// `"..."`, `$tag$...$tag$`, `--` and nested `/* */` comments, parentheses, or a
/// `BEGIN ATOMIC ... END` body of `CREATE FUNCTION` / `CREATE PROCEDURE`. Text that is
/// only whitespace and comments is no statement (the server skips it too).
///
/// After `COPY ... FROM STDIN;` the lines up to a line holding only `\.` are data, not
/// SQL (pg_dump's plain format, read as psql reads it): they become the statement's
/// `copyData`. Lexing assumes `standard_conforming_strings = on`, the default since
/// PostgreSQL 9.1 and what pgwarden sets on its sessions.
public enum StatementSplitter {
    /// The statements of `text`, in order.
    public static func split(_ text: String) -> [SQLStatement] {
        var text = text
        text.makeContiguousUTF8()
        return split(text[...])
    }

    /// The statements of a substring, in order (offsets relative to its start); they
    /// share its storage.
    public static func split(_ text: Substring) -> [SQLStatement] {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes, source: text)
            return scanner.run()
        }
    }

    /// The statements of a scalar array, in order.
    public static func split(_ scalars: [Unicode.Scalar]) -> [SQLStatement] {
        split(string(scalars[...]))
    }

    /// The first statement's keywords (see `SQLStatement.keywords`).
    static func firstKeywords(_ text: String) -> [String] {
        let text = text[...]
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes, source: text)
            scanner.stopAfterFirst = true
            scanner.wordLimit = 6
            _ = scanner.run()
            return scanner.firstWords ?? []
        }
    }

    /// The offset (in scalars) just after the first dollar-quote opener (`$$` or
    /// `$tag$`) in `scalars`, skipping comments and other quotes; nil when there is
    /// none. Used to map a PL/pgSQL body's line numbers onto the file.
    public static func firstDollarQuoteBody(in scalars: [Unicode.Scalar]) -> Int? {
        let text = string(scalars[...])[...]
        var contiguous = text
        return contiguous.withUTF8 { bytes -> Int? in
            var scanner = Scanner(bytes: bytes, source: text)
            return scanner.firstDollarQuoteBody().map { scanner.scalarOffset($0) }
        }
    }

    static func string(_ slice: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: slice)
        return String(view)
    }
}

/// The state machine behind `StatementSplitter`, over UTF-8 bytes. Bytes of
/// multi-byte characters count as identifier characters, as in PostgreSQL's lexer;
/// whitespace is ASCII whitespace (space, tab, newline, carriage return, form feed).
private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let source: Substring
    var index = 0
    var statementStart: Int?
    var lastTokenEnd = 0
    var parenDepth = 0
    var beginDepth = 0
    var words: [String] = []
    var statements: [SQLStatement] = []
    var stopAfterFirst = false
    /// How many leading words to collect: what `StatementKind` and the routine-body
    /// rule need (6 when the caller wants `keywords`).
    var wordLimit = 4
    var firstWords: [String]?
    /// A byte offset and its scalar offset, to convert offsets moving forward.
    var cursor = (byte: 0, scalar: 0)
    /// All ASCII: scalar offsets are byte offsets.
    let isASCII: Bool
    /// Where `source` begins in its base string, in UTF-8 bytes.
    let baseOffset: Int

    init(bytes: UnsafeBufferPointer<UInt8>, source: Substring) {
        self.bytes = bytes
        self.source = source
        isASCII = UTF8Bytes.isASCII(bytes)
        baseOffset = source.base.utf8.distance(from: source.base.utf8.startIndex, to: source.startIndex)
    }

    func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// The scalar offset of a byte offset.
    mutating func scalarOffset(_ byte: Int) -> Int {
        if isASCII { return byte }
        if byte < cursor.byte { cursor = (0, 0) }
        var scalar = cursor.scalar
        var offset = cursor.byte
        while offset < byte {
            if bytes[offset] & 0xC0 != 0x80 { scalar += 1 }
            offset += 1
        }
        cursor = (byte, scalar)
        return scalar
    }

    mutating func run() -> [SQLStatement] {
        while index < bytes.count, !(stopAfterFirst && firstWords != nil) {
            step()
        }
        finishStatement(end: lastTokenEnd)
        return statements
    }

    mutating func firstDollarQuoteBody() -> Int? {
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "$"), !previousIsIdentifier(), let tagLength = dollarTagLength() {
                return index + tagLength
            }
            step()
        }
        return nil
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == 0x0B
    }

    mutating func step() {
        let byte = bytes[index]
        if Self.isWhitespace(byte) {
            index += 1
        } else if byte == UInt8(ascii: "-"), peek(1) == UInt8(ascii: "-") {
            skipLineComment()
        } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
            skipBlockComment()
        } else if byte == UInt8(ascii: ";"), statementStart == nil {
            index += 1  // an empty statement: the server skips it too
        } else {
            if statementStart == nil { statementStart = index }
            token(byte)
            lastTokenEnd = index
        }
    }

    mutating func token(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "'"): skipQuoted(UInt8(ascii: "'"), backslashEscapes: false)
        case UInt8(ascii: "\""): skipQuoted(UInt8(ascii: "\""), backslashEscapes: false)
        case UInt8(ascii: "$"): skipDollar()
        case UInt8(ascii: "("): parenDepth += 1; index += 1
        case UInt8(ascii: ")"): parenDepth = max(0, parenDepth - 1); index += 1
        case UInt8(ascii: ";"):
            index += 1
            if parenDepth == 0 && beginDepth == 0 { finishStatement(end: index) }
        default:
            if Self.isIdentifierStart(byte) { word() } else { index += 1 }
        }
    }

    mutating func finishStatement(end: Int) {
        if let start = statementStart {
            let kind = StatementKind(keywords: words)
            if firstWords == nil { firstWords = words }
            let copyData = kind == .copyFromStdin ? skipCopyData() : nil
            let scalarStart = scalarOffset(start)
            let scalarEnd = scalarOffset(end)
            let data = copyData.map { scalarOffset($0.lowerBound)..<scalarOffset($0.upperBound) }
            statements.append(SQLStatement(
                range: scalarStart..<scalarEnd, base: source.base, bytes: baseOffset + start..<baseOffset + end,
                kind: kind, copyData: data))
        }
        statementStart = nil
        parenDepth = 0
        beginDepth = 0
        words = []
    }

    mutating func word() {
        let start = index
        while let next = peek(), Self.isIdentifierPart(next) { index += 1 }
        let isE = index - start == 1 && (bytes[start] | 0x20) == UInt8(ascii: "e")
        if isE && peek() == UInt8(ascii: "'") {
            skipQuoted(UInt8(ascii: "'"), backslashEscapes: true)
            return
        }
        if words.isEmpty, wordLimit < 6, !Self.mayMatter(firstLetter: bytes[start] | 0x20) {
            words.append("")  // insert, update, select, ...: decides nothing; costs no string
            return
        }
        let isCopy = words.first == "copy"
        guard words.count < wordLimit || isCopy || beginDepth > 0 || isRoutineDefinition else { return }
        // After a first word that decides nothing (insert, update, alter, ...), later
        // words cannot change the statement's kind: skip them.
        if wordLimit < 6, let first = words.first, !Self.wordsThatMatter.contains(first) { return }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self).lowercased()
        trackBeginAtomic(text)
        if isCopy {
            // COPY's options and column lists sit in parentheses; FROM STDIN is at the top.
            if parenDepth == 0 && words.count < 16 { words.append(text) }
        } else if words.count < wordLimit {
            words.append(text)
        }
    }

    /// Whether a word starting with this (lowercased) letter may be one of `wordsThatMatter`.
    static func mayMatter(firstLetter: UInt8) -> Bool {
        switch firstLetter {
        case UInt8(ascii: "b"), UInt8(ascii: "s"), UInt8(ascii: "c"), UInt8(ascii: "e"), UInt8(ascii: "a"),
            UInt8(ascii: "r"), UInt8(ascii: "p"), UInt8(ascii: "d"): return true
        default: return false
        }
    }

    /// First words after which later words matter (to `StatementKind` or to the
    /// routine-body rule).
    static let wordsThatMatter: Set<String> = [
        "begin", "start", "commit", "end", "abort", "rollback", "prepare", "savepoint", "release", "discard",
        "reset", "set", "call", "copy", "create",
    ]

    /// Skips a COPY data block: from the line after the statement to the `\.` line
    /// (or the end of the text). Returns the data's byte range, without the `\.` line.
    mutating func skipCopyData() -> Range<Int> {
        while index < bytes.count, bytes[index] != 0x0A { index += 1 }
        if index < bytes.count { index += 1 }
        let start = index
        while index < bytes.count {
            let lineStart = index
            while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            if index - lineStart == 2, bytes[lineStart] == UInt8(ascii: "\\"), bytes[lineStart + 1] == UInt8(ascii: ".") {
                if index < bytes.count { index += 1 }
                lastTokenEnd = index
                return start..<lineStart
            }
            if index < bytes.count { index += 1 }
        }
        lastTokenEnd = index
        return start..<index
    }

    /// psql's rule: in CREATE [OR REPLACE] FUNCTION/PROCEDURE, BEGIN and CASE open a
    /// block that END closes; semicolons inside it do not end the statement.
    mutating func trackBeginAtomic(_ word: String) {
        if word == "begin" || word == "case" {
            if isRoutineDefinition && parenDepth == 0 { beginDepth += 1 }
        } else if word == "end", beginDepth > 0 {
            beginDepth -= 1
        }
    }

    var isRoutineDefinition: Bool {
        guard words.first == "create", words.count > 1 else { return false }
        if words[1] == "function" || words[1] == "procedure" { return true }
        return words.count > 3 && words[1] == "or" && words[2] == "replace"
            && (words[3] == "function" || words[3] == "procedure")
    }

    mutating func skipLineComment() {
        while let next = peek(), next != 0x0A { index += 1 }
    }

    mutating func skipBlockComment() {
        var depth = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                index += 1
            }
        }
    }

    /// Skips `'...'` or `"..."` where a doubled quote is part of the text; with
    /// backslash escapes (E-strings) a backslash also escapes the next character.
    mutating func skipQuoted(_ quote: UInt8, backslashEscapes: Bool) {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if backslashEscapes && byte == UInt8(ascii: "\\") {
                index += 2
            } else if byte == quote {
                index += 1
                if peek() == quote { index += 1 } else { return }
            } else {
                index += 1
            }
        }
        index = min(index, bytes.count)
    }

    mutating func skipDollar() {
        guard !previousIsIdentifier(), let tagLength = dollarTagLength() else {
            index += 1
            return
        }
        let tag = UnsafeBufferPointer(rebasing: bytes[index..<index + tagLength])
        index += tagLength
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "$"), index + tagLength <= bytes.count,
                UnsafeBufferPointer(rebasing: bytes[index..<index + tagLength]).elementsEqual(tag)
            {
                index += tagLength
                return
            }
            index += 1
        }
    }

    /// The length of a `$tag$` opener at `index` (`$$` is 2), or nil when `$` here
    /// is not one (e.g. a `$1` parameter).
    func dollarTagLength() -> Int? {
        var cursor = index + 1
        if cursor < bytes.count, Self.isIdentifierStart(bytes[cursor]) {
            cursor += 1
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "$"), Self.isIdentifierPart(bytes[cursor]) {
                cursor += 1
            }
        }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "$") else { return nil }
        return cursor - index + 1
    }

    func previousIsIdentifier() -> Bool {
        index > 0 && Self.isIdentifierPart(bytes[index - 1])
    }

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || byte == UInt8(ascii: "$") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
