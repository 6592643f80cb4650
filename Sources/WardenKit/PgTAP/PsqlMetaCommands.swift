/// psql meta-commands in a test file (`\set QUIET 1`, `\echo ...`, `\ir helper.sql`):
/// pg_prove runs test files through psql, which executes them itself; pgwarden sends
/// SQL only. Those that change nothing but psql's own output or error handling are
/// blanked (the file's line numbers stay); an include (`\i`, `\ir`, `\include`,
/// `\include_relative`) is blanked too and handed back, for `PsqlIncludes` to inline;
/// any other is refused with its line, since pgwarden cannot do what it asks (`\c`
/// connects, `\set name` makes a variable for `:name`).
///
/// A meta-command is recognised where psql reads one most often: at the start of a
/// statement (a backslash as the first character after the previous statement).
enum PsqlMetaCommands {
    /// Commands that only affect psql's output.
    static let outputOnly: Set<String> = ["echo", "qecho", "pset", "timing", "x", "t", "a", "f", "encoding", "warn"]
    /// psql's own settings a `\set` may change without pgwarden having to do anything:
    /// pgwarden already stops a file at its first error, and prints no echo.
    static let psqlSettings: Set<String> = [
        "ON_ERROR_STOP", "QUIET", "ECHO", "ECHO_HIDDEN", "VERBOSITY", "SHOW_CONTEXT", "ON_ERROR_ROLLBACK",
    ]
    /// The include commands, and whether each reads its path relative to the including
    /// file's folder (`\ir`) rather than to psql's working directory (`\i`).
    static let includes: [String: Bool] = ["i": false, "include": false, "ir": true, "include_relative": true]

    /// An include meta-command found in a text.
    struct Include: Equatable {
        /// The whole command line, as written (`\ir _shared/helper.sql`).
        var command: String
        /// The path it names (quotes removed), as written.
        var path: String
        /// True for `\ir`: relative to the including file's folder.
        var relative: Bool
        /// The text's line it is on, and the scalar offset where it starts.
        var line: Int
        var offset: Int
    }

    /// `text` with every harmless meta-command line and every include blanked, and the
    /// includes in order; throws `PgTAPError.refused`.
    static func strip(_ text: String, file: String) throws -> (text: String, includes: [Include]) {
        guard text.contains("\\") else { return (text, []) }
        var scalars = Array(text.unicodeScalars)
        var current = text
        var found: [Include] = []
        while let statement = StatementSplitter.split(current).first(where: { $0.text.hasPrefix("\\") }) {
            let start = statement.range.lowerBound
            var end = start
            while end < scalars.count, scalars[end] != "\n" { end += 1 }
            let command = String(String.UnicodeScalarView(scalars[start..<end]))
            let line = scalars[..<start].reduce(1) { $0 + ($1 == "\n" ? 1 : 0) }
            if let include = try include(command, file: file, line: line, offset: start) {
                found.append(include)
            } else if let refusal = refusal(command) {
                throw PgTAPError.refused(file: file, line: line, reason: "'\(command)' \(refusal)")
            }
            for index in start..<end { scalars[index] = " " }
            current = String(String.UnicodeScalarView(scalars))
        }
        return (current, found)
    }

    /// The include that `command` is, nil when it is another meta-command; throws when
    /// it names no file.
    static func include(_ command: String, file: String, line: Int, offset: Int) throws -> Include? {
        let body = command.dropFirst().drop { $0 != " " && $0 != "\t" }
        let name = String(command.dropFirst().prefix(command.count - 1 - body.count))
        guard let relative = includes[name] else { return nil }
        guard let path = argument(body), !path.isEmpty else {
            throw PgTAPError.refused(file: file, line: line, reason: "'\(command)' names no file to include")
        }
        return Include(command: command, path: path, relative: relative, line: line, offset: offset)
    }

    /// A meta-command's first argument as psql reads it: a word, or a single-quoted
    /// string (a doubled quote is one quote).
    static func argument(_ text: Substring) -> String? {
        let rest = text.drop { $0 == " " || $0 == "\t" }
        guard rest.first == "'" else {
            let word = rest.prefix { $0 != " " && $0 != "\t" }
            return word.isEmpty ? nil : String(word)
        }
        var result = ""
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex {
            let character = rest[index]
            index = rest.index(after: index)
            if character == "'" {
                guard index < rest.endIndex, rest[index] == "'" else { return result }
                index = rest.index(after: index)
            }
            result.append(character)
        }
        return nil
    }

    /// Why `command` (the whole meta-command line) cannot be skipped, or nil.
    static func refusal(_ command: String) -> String? {
        let words = command.dropFirst().split(separator: " ", omittingEmptySubsequences: true)
        let name = words.first.map(String.init) ?? ""
        if outputOnly.contains(name) { return nil }
        if name == "set" || name == "unset" {
            if let variable = words.dropFirst().first, psqlSettings.contains(String(variable)) { return nil }
            return "sets a psql variable, which only psql can substitute; write the value in the SQL"
        }
        return "is a psql meta-command that pgwarden does not run (it sends SQL only)"
    }
}
