/// The state machine behind `StatementSplitter`, over UTF-8 bytes. Bytes of
/// multi-byte characters count as identifier characters, as in PostgreSQL's lexer;
/// whitespace is ASCII whitespace (space, tab, newline, carriage return, form feed).
struct StatementScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let source: Substring
    var index = 0
    var statementStart: Int?
    var lastTokenEnd = 0
    var parenDepth = 0
    /// Depth inside a `BEGIN ATOMIC ... END` routine body: 1 in the body, one more
    /// for each CASE still open there.
    var beginDepth = 0
    /// The last token was the word BEGIN that may open a `BEGIN ATOMIC` body.
    var beginMayOpenBody = false
    /// The last token was `.` or the word AS: a keyword after it is a name
    /// (`t.end`, `as case`), not CASE or END.
    var afterNamePrefix = false
    var words: [String] = []
    var statements: [SQLStatement] = []
    var stopAfterFirst = false
    /// How many leading words to collect: what `StatementKind` and the routine-body
    /// rule need (6 when the caller wants `keywords`).
    var wordLimit = 4
    var firstWords: [String]?
    /// psql's view of the text (`StatementSplitter.psqlMarks`): collect the byte offsets
    /// of top-level `\` and `:` (outside quotes, dollar quotes and comments), and stop
    /// at the first backslash when `stopAtBackslash`.
    var collectsPsqlMarks = false
    var stopAtBackslash = false
    var psqlMarks: [Int] = []
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
            if stopAtBackslash, let last = psqlMarks.last, bytes[last] == UInt8(ascii: "\\") { return statements }
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
        if !Self.isIdentifierStart(byte) {
            beginMayOpenBody = false
            afterNamePrefix = byte == UInt8(ascii: ".")
        }
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
            if Self.isIdentifierStart(byte) {
                word()
            } else {
                if collectsPsqlMarks, byte == UInt8(ascii: "\\") || byte == UInt8(ascii: ":") { psqlMarks.append(index) }
                index += 1
            }
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
        beginMayOpenBody = false
        afterNamePrefix = false
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

    /// The SQL-standard routine body of PostgreSQL 14+: in CREATE [OR REPLACE]
    /// FUNCTION/PROCEDURE, the words BEGIN ATOMIC (outside parentheses) open a body
    /// whose semicolons do not end the statement; inside it, CASE (a reserved word)
    /// opens an expression that END closes, at any parenthesis depth, and the END
    /// that balances BEGIN closes the body. BEGIN alone is an ordinary name there
    /// (`f(begin int) ... return begin;`), and a keyword after `.` or AS is a column
    /// name (`t.end`, `as case`). psql's own rule counts every BEGIN and CASE at the
    /// top level of the statement, which the server does not: this follows the server.
    mutating func trackBeginAtomic(_ word: String) {
        defer { afterNamePrefix = word == "as" }
        let opensBody = beginMayOpenBody && word == "atomic"
        beginMayOpenBody = false
        if beginDepth == 0 {
            if opensBody {
                beginDepth = 1
            } else if word == "begin", parenDepth == 0, isRoutineDefinition {
                beginMayOpenBody = true
            }
        } else if !afterNamePrefix {
            if word == "case" { beginDepth += 1 } else if word == "end" { beginDepth -= 1 }
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
