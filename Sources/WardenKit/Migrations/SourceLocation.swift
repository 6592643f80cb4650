/// A 1-based line and column in a text; columns count Unicode scalars (characters
/// as PostgreSQL counts them in a UTF-8 database), so a server's error position maps
/// exactly onto the file.
public struct SourceLocation: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A text with its line starts, to turn character offsets (what the server reports,
/// in Unicode scalars) into lines and columns and to print source lines.
///
/// Works on the text's UTF-8 bytes (no array of scalars: a 50 MB file costs its lines'
/// starts, two integers a line, besides the text). Lines end at `\n`; texts are
/// normalized to `\n` line endings before they get here.
package struct SourceText: Sendable {
    /// The text (a substring shares its file's storage: no copy).
    public let string: Substring
    /// The scalar offset where each line begins; line 1 begins at 0.
    let lineStarts: [Int]
    /// The UTF-8 offset where each line begins.
    let lineByteStarts: [Int]
    /// How many Unicode scalars the text has.
    public let count: Int
    /// How many UTF-8 bytes the text has.
    public let byteCount: Int

    public init(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        self.init(text[...])
    }

    public init(_ text: Substring) {
        var text = text
        string = text
        var starts = [0]
        var byteStarts = [0]
        var scalars = 0
        text.withUTF8 { bytes in
            if UTF8Bytes.isASCII(bytes) {
                byteStarts += UTF8Bytes.lineBreaks(bytes)
                starts = byteStarts
                scalars = bytes.count
                return
            }
            for (offset, byte) in bytes.enumerated() {
                if byte & 0xC0 != 0x80 { scalars += 1 }
                if byte == 0x0A {
                    starts.append(scalars)
                    byteStarts.append(offset + 1)
                }
            }
        }
        lineStarts = starts
        lineByteStarts = byteStarts
        count = scalars
        byteCount = text.utf8.count
    }

    /// How many lines the text has (a final newline does not start a counted line
    /// unless something follows it).
    public var lineCount: Int {
        if let last = lineStarts.last, last == count, lineStarts.count > 1 {
            return lineStarts.count - 1
        }
        return lineStarts.count
    }

    /// The 0-based index of the line holding a scalar offset.
    private func lineIndex(ofOffset offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The line and column of a 0-based scalar offset (clamped into the text).
    public func location(ofOffset offset: Int) -> SourceLocation {
        let clamped = max(0, min(offset, count))
        let line = lineIndex(ofOffset: clamped)
        return SourceLocation(line: line + 1, column: clamped - lineStarts[line] + 1)
    }

    /// The scalar offset where a 1-based line begins (clamped).
    public func offset(ofLine line: Int) -> Int {
        lineStarts[max(0, min(line - 1, lineStarts.count - 1))]
    }

    /// The UTF-8 offset of a scalar offset (clamped).
    public func byteOffset(ofOffset offset: Int) -> Int {
        let clamped = max(0, min(offset, count))
        let line = lineIndex(ofOffset: clamped)
        var byte = lineByteStarts[line]
        var scalar = lineStarts[line]
        let utf8 = string.utf8
        var index = utf8.index(utf8.startIndex, offsetBy: byte)
        while scalar < clamped, index < utf8.endIndex {
            utf8.formIndex(after: &index)
            byte += 1
            if index == utf8.endIndex || utf8[index] & 0xC0 != 0x80 { scalar += 1 }
        }
        return byte
    }

    /// The text of a 1-based line, without its newline ("" when out of range).
    public func line(_ number: Int) -> String {
        guard number >= 1, number <= lineStarts.count else { return "" }
        let start = lineByteStarts[number - 1]
        let end = number < lineStarts.count ? lineByteStarts[number] - 1 : byteCount
        return Self.slice(string, bytes: start..<max(start, end))
    }

    /// The text between two scalar offsets.
    public func text(_ range: Range<Int>) -> String {
        let lower = byteOffset(ofOffset: range.lowerBound)
        let upper = max(lower, byteOffset(ofOffset: range.upperBound))
        return Self.slice(string, bytes: lower..<upper)
    }

    /// The text between two scalar offsets, sharing the text's storage.
    public func substring(_ range: Range<Int>) -> Substring {
        let lower = byteOffset(ofOffset: range.lowerBound)
        let upper = max(lower, byteOffset(ofOffset: range.upperBound))
        return Self.substring(string, bytes: lower..<upper)
    }

    /// The part of `text` between two UTF-8 offsets (which fall on scalar boundaries).
    static func slice(_ text: Substring, bytes: Range<Int>) -> String {
        String(substring(text, bytes: bytes))
    }

    static func substring(_ text: Substring, bytes: Range<Int>) -> Substring {
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: bytes.lowerBound)
        let end = utf8.index(start, offsetBy: bytes.count)
        return Substring(utf8[start..<end])
    }
}

/// Prints source lines the way compilers do, with a caret under a column:
///
/// ```
///    12 | create tabel foo (
///       |        ^
/// ```
package enum SourceExcerpt {
    /// The gutter width used for line numbers.
    static let gutter = 5

    /// One numbered source line.
    public static func line(_ number: Int, _ text: String) -> String {
        let label = String(number)
        let padding = String(repeating: " ", count: max(0, gutter - label.count))
        return "\(padding)\(label) | \(text)"
    }

    /// The caret line under `text` at a 1-based `column`; tabs before the column are
    /// kept so the caret lines up whatever the tab width.
    public static func caret(under text: String, column: Int) -> String {
        let prefix = text.unicodeScalars.prefix(max(0, column - 1)).map { $0 == "\t" ? "\t" : " " }.joined()
        let missing = max(0, column - 1 - text.unicodeScalars.count)
        return String(repeating: " ", count: gutter) + " | " + prefix + String(repeating: " ", count: missing) + "^"
    }
}
