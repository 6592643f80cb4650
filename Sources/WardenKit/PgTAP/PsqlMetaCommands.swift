/// psql meta-commands in a test file (`\set QUIET 1`, `\echo ...`): pg_prove runs test
/// files through psql, which executes them itself; pgwarden sends SQL only. Those that
/// change nothing but psql's own output or error handling are blanked (the file's line
/// numbers stay); any other is refused with its line, since pgwarden cannot do what it
/// asks (`\i` includes, `\c` connects, `\set name` makes a variable for `:name`).
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

    /// `text` with every harmless meta-command line blanked; throws `PgTAPError.refused`.
    static func strip(_ text: String, file: String) throws -> String {
        guard text.contains("\\") else { return text }
        var scalars = Array(text.unicodeScalars)
        var current = text
        while let statement = StatementSplitter.split(current).first(where: { $0.text.hasPrefix("\\") }) {
            let start = statement.range.lowerBound
            var end = start
            while end < scalars.count, scalars[end] != "\n" { end += 1 }
            let command = String(String.UnicodeScalarView(scalars[start..<end]))
            if let refusal = refusal(command) {
                let line = scalars[..<start].reduce(1) { $0 + ($1 == "\n" ? 1 : 0) }
                throw PgTAPError.refused(file: file, line: line, reason: "'\(command)' \(refusal)")
            }
            for index in start..<end { scalars[index] = " " }
            current = String(String.UnicodeScalarView(scalars))
        }
        return current
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
