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

/// A text indexed by Unicode scalar, with its line starts, to turn character offsets
/// (what the server reports) into lines and columns and to print source lines.
///
/// Lines end at `\n`; texts are normalized to `\n` line endings before they get here.
public struct SourceText: Sendable {
    /// The text's Unicode scalars.
    public let scalars: [Unicode.Scalar]
    /// The scalar offset where each line begins; line 1 begins at 0.
    let lineStarts: [Int]

    public init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" {
            starts.append(offset + 1)
        }
        lineStarts = starts
    }

    /// How many lines the text has (a final newline does not start a counted line
    /// unless something follows it).
    public var lineCount: Int {
        if let last = lineStarts.last, last == scalars.count, lineStarts.count > 1 {
            return lineStarts.count - 1
        }
        return lineStarts.count
    }

    /// The line and column of a 0-based scalar offset (clamped into the text).
    public func location(ofOffset offset: Int) -> SourceLocation {
        let clamped = max(0, min(offset, scalars.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= clamped { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(line: low + 1, column: clamped - lineStarts[low] + 1)
    }

    /// The scalar offset where a 1-based line begins (clamped).
    public func offset(ofLine line: Int) -> Int {
        lineStarts[max(0, min(line - 1, lineStarts.count - 1))]
    }

    /// The text of a 1-based line, without its newline ("" when out of range).
    public func line(_ number: Int) -> String {
        guard number >= 1, number <= lineStarts.count else { return "" }
        let start = lineStarts[number - 1]
        let end = number < lineStarts.count ? lineStarts[number] - 1 : scalars.count
        return Self.string(scalars[start..<max(start, end)])
    }

    /// The text between two scalar offsets.
    public func text(_ range: Range<Int>) -> String {
        let lower = max(0, min(range.lowerBound, scalars.count))
        let upper = max(lower, min(range.upperBound, scalars.count))
        return Self.string(scalars[lower..<upper])
    }

    static func string(_ slice: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: slice)
        return String(view)
    }
}

/// Prints source lines the way compilers do, with a caret under a column:
///
/// ```
///    12 | create tabel foo (
///       |        ^
/// ```
public enum SourceExcerpt {
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
