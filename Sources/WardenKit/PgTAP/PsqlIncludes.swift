import Foundation

/// A test file's statements in the order psql runs them, with what its includes
/// (`\i`, `\ir`, `\include`, `\include_relative`) bring in inlined where they stand,
/// recursively, each statement with the file and line it is written on.
///
/// As psql resolves them: `\i path` is relative to psql's working directory, which
/// under `supabase test db` is the tests folder (it runs pg_prove there); `\ir path` is
/// relative to the folder of the file that holds it. A missing or unreadable file, and
/// a file that includes itself (directly or through others, which psql would repeat
/// until it fails), are refused at the include's file and line.
struct PsqlIncludes {
    /// A statement and where it is written.
    struct Located {
        var statement: SQLStatement
        /// The file the statement is written in, and its line there.
        var file: String
        var line: Int
        /// The test file's line it runs from: its own line, or the line of the test
        /// file's include that brings it in.
        var testLine: Int
        /// The `\set` and `\unset` that run before it (since the statement before).
        var variables: [PsqlVariableCommand] = []
        /// The `\gset` that ends it, and its line in the statement's file.
        var gset: (arguments: String, line: Int)?
    }

    /// The folder `\i` paths are relative to (nil: the process's current directory).
    let workingDirectory: String?
    /// Every file included so far (`identity(of:)`).
    private(set) var included: Set<String> = []
    /// Variable commands read since the last statement (also at the end of an included file).
    private var pendingVariables: [PsqlVariableCommand] = []

    init(workingDirectory: String?) { self.workingDirectory = workingDirectory }

    /// The statements of the test file `file` (its text `text`), includes inlined.
    mutating func statements(file: String, text: String) throws -> [Located] {
        try statements(file: file, text: text, chain: [(Self.identity(of: file), file, 0)], testLine: nil)
    }

    /// `chain`: the files being read, outermost first, each with the line of the include
    /// that reads the next. `testLine`: the test file's include line, for an included file.
    private mutating func statements(
        file: String, text: String, chain: [(identity: String, file: String, line: Int)], testLine: Int?
    ) throws -> [Located] {
        let (stripped, includes, variables) = try PsqlMetaCommands.strip(text, file: file)
        let source = SourceText(stripped)
        var located: [Located] = []
        var pending = includes[...]
        var pendingCommands = variables[...]
        /// Takes the variable commands before `offset`; throws at a `\gset` there, which ends no query.
        func takeVariables(before offset: Int) throws {
            while let variable = pendingCommands.first, variable.offset < offset {
                pendingCommands = pendingCommands.dropFirst()
                guard case .gset = variable.command else {
                    pendingVariables.append(variable.command)
                    continue
                }
                throw PgTAPError.refused(
                    file: file, line: variable.line,
                    reason: "'\\gset' ends no query (psql would run the query before it again); "
                        + "put it at the end of the query, without a semicolon")
            }
        }
        func inline(_ include: PsqlMetaCommands.Include) throws {
            var chain = chain
            chain[chain.count - 1].line = include.line
            let (path, text) = try read(include, in: file, chain: chain)
            chain.append((Self.identity(of: path), path, 0))
            included.insert(Self.identity(of: path))
            located += try statements(file: path, text: text, chain: chain, testLine: testLine ?? include.line)
        }
        for statement in StatementSplitter.split(stripped) {
            while let include = pending.first, include.offset < statement.range.lowerBound {
                try takeVariables(before: include.offset)
                try inline(include)
                pending = pending.dropFirst()
            }
            try takeVariables(before: statement.range.lowerBound)
            let line = source.location(ofOffset: statement.range.lowerBound).line
            var item = Located(statement: statement, file: file, line: line, testLine: testLine ?? line)
            // A `\set` inside the statement's text runs before it is sent; a `\gset`
            // there must be the `;` that ends it.
            while let variable = pendingCommands.first, variable.offset < statement.range.upperBound {
                pendingCommands = pendingCommands.dropFirst()
                guard case .gset(let arguments) = variable.command else {
                    pendingVariables.append(variable.command)
                    continue
                }
                guard variable.offset == statement.range.upperBound - 1 else {
                    throw PgTAPError.refused(
                        file: file, line: variable.line,
                        reason: "'\\gset' ends a query that is not complete there (an open parenthesis or quote)")
                }
                item.gset = (arguments, variable.line)
            }
            item.variables = pendingVariables
            pendingVariables = []
            located.append(item)
        }
        for include in pending {
            try takeVariables(before: include.offset)
            try inline(include)
        }
        try takeVariables(before: Int.max)
        return located
    }

    /// The path and text of the file `include` names; throws `PgTAPError.include` at
    /// the include's line when it is missing, unreadable, not UTF-8, or already being read.
    private func read(
        _ include: PsqlMetaCommands.Include, in file: String, chain: [(identity: String, file: String, line: Int)]
    ) throws -> (path: String, text: String) {
        let base = include.relative ? (file as NSString).deletingLastPathComponent : workingDirectory ?? ""
        let path = Self.join(base, include.path)
        func refuse(_ why: String) -> PgTAPError {
            .include(file: file, line: include.line, reason: "'\(include.command)' includes \(path), \(why)")
        }
        let identity = Self.identity(of: path)
        if let first = chain.firstIndex(where: { $0.identity == identity }) {
            let loop = chain[first...].map { "\($0.file):\($0.line)" } + [path]
            throw refuse("which is already being included (\(loop.joined(separator: " → "))): "
                + "psql would include it again and again")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw refuse("which does not exist (" + (include.relative
                ? "\\ir reads a path relative to the including file's folder)"
                : "\\i reads a path relative to the tests folder, where supabase test db runs pg_prove; "
                    + "\\ir reads it relative to the including file)"))
        }
        guard !isDirectory.boolValue else { throw refuse("which is a folder") }
        let text = try TextFile.read(atPath: path).mapError {
            refuse($0 == .unreadable ? "which cannot be read" : "which is not UTF-8")
        }.get()
        return (path, LineEndings.normalize(text))
    }

    /// `path` under `base` (unless it is absolute), with `.` and `..` taken out as far
    /// as the path itself allows, so reports name `supabase/tests/_shared/x.sql`.
    static func join(_ base: String, _ path: String) -> String {
        let whole = path.hasPrefix("/") || base.isEmpty ? path : base + "/" + path
        var parts: [Substring] = []
        for part in whole.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", whole.hasPrefix("/") { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return whole.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// What makes two paths the same file: the absolute path with symbolic links resolved.
    static func identity(of path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
