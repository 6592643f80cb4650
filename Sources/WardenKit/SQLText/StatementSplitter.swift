/// One SQL statement found in a text: where it is, in Unicode scalar offsets.
public struct SQLStatement: Equatable, Sendable {
    /// From the statement's first token to just after its `;` (or its last token).
    public let range: Range<Int>
    /// The statement's text over `range`.
    public let text: String
    /// Its first words, lowercased, with comments and quoted text skipped
    /// (`rollback /* to */;` is `["rollback"]`): what `kind` is judged from.
    public let keywords: [String]
    /// For `COPY ... FROM STDIN`: the data rows that follow it in the text, from the
    /// line after the statement up to (not including) the `\.` line that ends them, or
    /// to the end of the text (as psql reads a script). nil for other statements.
    public let copyData: Range<Int>?

    public init(range: Range<Int>, text: String, keywords: [String] = [], copyData: Range<Int>? = nil) {
        self.range = range
        self.text = text
        self.keywords = keywords
        self.copyData = copyData
    }

    /// What the statement does to the session, judged from its keywords.
    public var kind: StatementKind { StatementKind(keywords: keywords) }
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
        split(SourceText(text).scalars)
    }

    /// The statements of a scalar array, in order.
    public static func split(_ scalars: [Unicode.Scalar]) -> [SQLStatement] {
        var scanner = Scanner(scalars: scalars)
        return scanner.run()
    }

    /// The offset just after the first dollar-quote opener (`$$` or `$tag$`) in
    /// `scalars`, skipping comments and other quotes; nil when there is none. Used to
    /// map a PL/pgSQL body's line numbers onto the file.
    public static func firstDollarQuoteBody(in scalars: [Unicode.Scalar]) -> Int? {
        var scanner = Scanner(scalars: scalars)
        return scanner.firstDollarQuoteBody()
    }
}

/// The state machine behind `StatementSplitter`.
private struct Scanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    var statementStart: Int?
    var lastTokenEnd = 0
    var parenDepth = 0
    var beginDepth = 0
    var words: [String] = []
    var statements: [SQLStatement] = []

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    mutating func run() -> [SQLStatement] {
        while index < scalars.count {
            step()
        }
        finishStatement(end: lastTokenEnd)
        return statements
    }

    mutating func firstDollarQuoteBody() -> Int? {
        while index < scalars.count {
            if scalars[index] == "$", !previousIsIdentifier(), let tagLength = dollarTagLength() {
                return index + tagLength
            }
            step()
        }
        return nil
    }

    mutating func step() {
        let scalar = scalars[index]
        if scalar.properties.isWhitespace {
            index += 1
        } else if scalar == "-", peek(1) == "-" {
            skipLineComment()
        } else if scalar == "/", peek(1) == "*" {
            skipBlockComment()
        } else if scalar == ";", statementStart == nil {
            index += 1  // an empty statement: the server skips it too
        } else {
            if statementStart == nil { statementStart = index }
            token(scalar)
            lastTokenEnd = index
        }
    }

    mutating func token(_ scalar: Unicode.Scalar) {
        switch scalar {
        case "'": skipQuoted("'", backslashEscapes: false)
        case "\"": skipQuoted("\"", backslashEscapes: false)
        case "$": skipDollar()
        case "(": parenDepth += 1; index += 1
        case ")": parenDepth = max(0, parenDepth - 1); index += 1
        case ";":
            index += 1
            if parenDepth == 0 && beginDepth == 0 { finishStatement(end: index) }
        default:
            if Self.isIdentifierStart(scalar) { word() } else { index += 1 }
        }
    }

    mutating func finishStatement(end: Int) {
        if let start = statementStart {
            let copyData = StatementKind(keywords: words) == .copyFromStdin ? skipCopyData() : nil
            statements.append(SQLStatement(
                range: start..<end, text: SourceText.string(scalars[start..<end]), keywords: words,
                copyData: copyData))
        }
        statementStart = nil
        parenDepth = 0
        beginDepth = 0
        words = []
    }

    mutating func word() {
        let start = index
        while let next = peek(), Self.isIdentifierPart(next) { index += 1 }
        let text = SourceText.string(scalars[start..<index]).lowercased()
        if (text == "e") && peek() == "'" {
            skipQuoted("'", backslashEscapes: true)
            return
        }
        trackBeginAtomic(text)
        if words.first == "copy" {
            // COPY's options and column lists sit in parentheses; FROM STDIN is at the top.
            if parenDepth == 0 && words.count < 16 { words.append(text) }
        } else if words.count < 6 {
            words.append(text)
        }
    }

    /// Skips a COPY data block: from the line after the statement to the `\.` line
    /// (or the end of the text). Returns the data's range, without the `\.` line.
    mutating func skipCopyData() -> Range<Int> {
        while index < scalars.count, scalars[index] != "\n" { index += 1 }
        if index < scalars.count { index += 1 }
        let start = index
        while index < scalars.count {
            let lineStart = index
            while index < scalars.count, scalars[index] != "\n" { index += 1 }
            if index - lineStart == 2, scalars[lineStart] == "\\", scalars[lineStart + 1] == "." {
                if index < scalars.count { index += 1 }
                lastTokenEnd = index
                return start..<lineStart
            }
            if index < scalars.count { index += 1 }
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
        let routine: Set<String> = ["function", "procedure"]
        guard words.first == "create" else { return false }
        if words.count > 1, routine.contains(words[1]) { return true }
        return words.count > 3 && words[1] == "or" && words[2] == "replace" && routine.contains(words[3])
    }

    mutating func skipLineComment() {
        while let next = peek(), next != "\n" { index += 1 }
    }

    mutating func skipBlockComment() {
        var depth = 0
        while index < scalars.count {
            if scalars[index] == "/", peek(1) == "*" {
                depth += 1
                index += 2
            } else if scalars[index] == "*", peek(1) == "/" {
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
    mutating func skipQuoted(_ quote: Unicode.Scalar, backslashEscapes: Bool) {
        index += 1
        while index < scalars.count {
            let scalar = scalars[index]
            if backslashEscapes && scalar == "\\" {
                index += 2
            } else if scalar == quote {
                index += 1
                if peek() == quote { index += 1 } else { return }
            } else {
                index += 1
            }
        }
    }

    mutating func skipDollar() {
        guard !previousIsIdentifier(), let tagLength = dollarTagLength() else {
            index += 1
            return
        }
        let tag = Array(scalars[index..<index + tagLength])
        index += tagLength
        while index < scalars.count {
            if scalars[index] == "$", index + tagLength <= scalars.count,
                Array(scalars[index..<index + tagLength]) == tag
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
        if cursor < scalars.count, Self.isIdentifierStart(scalars[cursor]) {
            cursor += 1
            while cursor < scalars.count, scalars[cursor] != "$", Self.isIdentifierPart(scalars[cursor]) {
                cursor += 1
            }
        }
        guard cursor < scalars.count, scalars[cursor] == "$" else { return nil }
        return cursor - index + 1
    }

    func previousIsIdentifier() -> Bool {
        index > 0 && Self.isIdentifierPart(scalars[index - 1])
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || (scalar.isASCII ? scalar.properties.isAlphabetic : scalar.value >= 0x80)
    }

    static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || scalar == "$" || ("0"..."9").contains(scalar)
    }
}
