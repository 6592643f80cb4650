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
package enum StatementSplitter {
    /// The statements of `text`, in order.
    package static func split(_ text: String) -> [SQLStatement] {
        var text = text
        text.makeContiguousUTF8()
        return split(text[...])
    }

    /// The statements of a substring, in order (offsets relative to its start); they
    /// share its storage.
    package static func split(_ text: Substring) -> [SQLStatement] {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var scanner = StatementScanner(bytes: bytes, source: text)
            return scanner.run()
        }
    }

    /// The statements of a scalar array, in order.
    package static func split(_ scalars: [Unicode.Scalar]) -> [SQLStatement] {
        split(string(scalars[...]))
    }

    /// The first statement's keywords (see `SQLStatement.keywords`).
    static func firstKeywords(_ text: String) -> [String] {
        let text = text[...]
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var scanner = StatementScanner(bytes: bytes, source: text)
            scanner.stopAfterFirst = true
            scanner.wordLimit = 6
            _ = scanner.run()
            return scanner.firstWords ?? []
        }
    }

    /// psql's view of `text`: the scalar offsets of its backslashes and colons outside
    /// quotes, dollar quotes and comments, where psql reads a meta-command (`\gset`) or
    /// a variable (`:name`, `:'name'`, `:"name"`). With `firstBackslash`, scanning
    /// stops at the first backslash.
    package static func psqlMarks(_ text: String, firstBackslash: Bool = false) -> [Int] {
        var text = text
        text.makeContiguousUTF8()
        let source = text[...]
        var contiguous = source
        return contiguous.withUTF8 { bytes in
            var scanner = StatementScanner(bytes: bytes, source: source)
            scanner.collectsPsqlMarks = true
            scanner.stopAtBackslash = firstBackslash
            _ = scanner.run()
            let marks = firstBackslash ? scanner.psqlMarks.filter { bytes[$0] == UInt8(ascii: "\\") } : scanner.psqlMarks
            return marks.map { scanner.scalarOffset($0) }
        }
    }

    /// The offset (in scalars) just after the first dollar-quote opener (`$$` or
    /// `$tag$`) in `scalars`, skipping comments and other quotes; nil when there is
    /// none. Used to map a PL/pgSQL body's line numbers onto the file.
    package static func firstDollarQuoteBody(in scalars: [Unicode.Scalar]) -> Int? {
        let text = string(scalars[...])[...]
        var contiguous = text
        return contiguous.withUTF8 { bytes -> Int? in
            var scanner = StatementScanner(bytes: bytes, source: text)
            return scanner.firstDollarQuoteBody().map { scanner.scalarOffset($0) }
        }
    }

    static func string(_ slice: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: slice)
        return String(view)
    }
}
