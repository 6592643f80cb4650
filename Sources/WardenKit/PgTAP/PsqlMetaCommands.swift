/// psql meta-commands in a test file (`\set QUIET 1`, `\echo ...`, `\ir helper.sql`):
/// pg_prove runs test files through psql, which executes them itself; pgwarden sends
/// SQL only. Those that change nothing but psql's own output or error handling are
/// blanked (the file's line numbers stay); an include (`\i`, `\ir`, `\include`,
/// `\include_relative`) is blanked too and handed back, for `PsqlIncludes` to inline;
/// variable commands (`\set name value`, `\unset`, `query \gset`) are blanked too and
/// handed back, for the runner (`PsqlVariables`); any other is refused with its line,
/// since pgwarden cannot do what it asks (`\c` connects).
///
/// A meta-command is recognised where psql reads one: at any backslash outside quotes,
/// dollar quotes and comments (`select 1 as n \gset`), up to the end of its line.
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

    /// A variable command found in a text (`\set`, `\unset`, `\gset`).
    struct Variable: Equatable {
        var command: PsqlVariableCommand
        /// The text's line it is on, and the scalar offset where it starts (for a
        /// `\gset`: where the `;` that now ends its query is).
        var line: Int
        var offset: Int
    }

    /// `text` with every harmless meta-command line, include and variable command
    /// blanked (a `\gset` becomes the `;` that ends its query), the includes and the
    /// variable commands in order; throws `PgTAPError.refused`.
    static func strip(_ text: String, file: String) throws -> (text: String, includes: [Include], variables: [Variable]) {
        guard text.contains("\\") else { return (text, [], []) }
        var scalars = Array(text.unicodeScalars)
        var current = text
        var found: [Include] = []
        var variables: [Variable] = []
        while let start = StatementSplitter.psqlMarks(current, firstBackslash: true).first {
            var end = start
            while end < scalars.count, scalars[end] != "\n" { end += 1 }
            let command = String(String.UnicodeScalarView(scalars[start..<end]))
            let line = scalars[..<start].reduce(1) { $0 + ($1 == "\n" ? 1 : 0) }
            func refuse(_ why: String) -> PgTAPError { .refused(file: file, line: line, reason: "'\(command)' \(why)") }
            if quits(command) {
                // psql stops reading the file at `\q` (`\quit`), alone on its line or
                // after another command (an extension script's `\echo Use "CREATE
                // EXTENSION ..." to load this file. \quit`): nothing after it runs.
                for index in start..<scalars.count where scalars[index] != "\n" { scalars[index] = " " }
                return (String(String.UnicodeScalarView(scalars)), found, variables)
            }
            var ends: Unicode.Scalar = " "
            if let include = try include(command, file: file, line: line, offset: start) {
                found.append(include)
            } else if let variable = try variableCommand(command, refuse: refuse) {
                variables.append(Variable(command: variable, line: line, offset: start))
                if case .gset = variable { ends = ";" }
            } else if let refusal = refusal(command) {
                throw refuse(refusal)
            }
            for index in start..<end { scalars[index] = " " }
            scalars[start] = ends
            current = String(String.UnicodeScalarView(scalars))
        }
        return (current, found, variables)
    }

    /// The variable command `command` is (nil for another meta-command).
    private static func variableCommand(
        _ command: String, refuse: (String) -> PgTAPError
    ) throws -> PsqlVariableCommand? {
        do {
            return try PsqlVariableCommand(command)
        } catch {
            throw refuse(error.reason)
        }
    }

    /// The include that `command` is, nil when it is another meta-command; throws when
    /// it names no file.
    static func include(_ command: String, file: String, line: Int, offset: Int) throws -> Include? {
        let body = command.dropFirst().drop { $0 != " " && $0 != "\t" }
        let name = String(command.dropFirst().prefix(command.count - 1 - body.count))
        guard let relative = includes[name] else { return nil }
        guard let path = PsqlArguments.split(body).first, !path.isEmpty else {
            throw PgTAPError.refused(file: file, line: line, reason: "'\(command)' names no file to include")
        }
        return Include(command: command, path: path, relative: relative, line: line, offset: offset)
    }

    /// Whether the meta-command line `command` holds psql's `\q` or `\quit`: first, or
    /// after another command on the line (at a backslash outside quotes).
    static func quits(_ command: String) -> Bool {
        let scalars = Array(command.unicodeScalars)
        var quote: Unicode.Scalar?
        for (index, scalar) in scalars.enumerated() {
            if let open = quote {
                if scalar == open { quote = nil }
                continue
            }
            if scalar == "'" || scalar == "\"" { quote = scalar; continue }
            guard scalar == "\\" else { continue }
            let name = String(String.UnicodeScalarView(scalars[(index + 1)...].prefix { $0.properties.isAlphabetic }))
            if name == "q" || name == "quit" { return true }
        }
        return false
    }

    /// Why `command` (the whole meta-command line) cannot be skipped, or nil.
    static func refusal(_ command: String) -> String? {
        let words = command.dropFirst().split(separator: " ", omittingEmptySubsequences: true)
        let name = words.first.map(String.init) ?? ""
        if outputOnly.contains(name) { return nil }
        // Variable commands are read before (`PsqlVariableCommand`): what is left is a
        // psql setting, or a bare `\set` that lists the variables.
        if name == "set" || name == "unset" { return nil }
        return "is a psql meta-command that pgwarden does not run (it sends SQL only)"
    }
}
