/// A pgTAP test file cut into what pgwarden sends: its statements, one at a time, in
/// blocks. A file's own top-level `BEGIN ... ROLLBACK` (or `COMMIT`) becomes a block
/// that pgwarden runs in a savepoint of its own transaction and rolls back (or
/// releases), as psql would end it; the `BEGIN`, `COMMIT` and `ROLLBACK` themselves
/// are never sent. Whatever the file does, pgwarden rolls the whole file back.
///
/// A `COMMIT`/`ROLLBACK` with no `BEGIN` before it is skipped, as psql's autocommit
/// makes it a no-op. Refused, with the file and line: a `BEGIN` inside a `BEGIN` block,
/// two-phase commit, `COPY ... FROM STDIN` (no data can
/// follow a statement that pgwarden sends on its own), and psql meta-commands other
/// than those that only change psql's output or psql variables (`PsqlMetaCommands`,
/// `PsqlVariables`: interpolated when the runner sends a statement). psql's includes
/// (`\i`, `\ir`) are inlined first (`PsqlIncludes`): a statement of an included file
/// is checked and reported at that file's line.
package struct PgTAPScript: Sendable {
    /// How a block ends.
    package enum Ending: Sendable, Equatable {
        /// Statements outside any BEGIN: they run directly in the file's transaction.
        case none
        /// BEGIN ... ROLLBACK, or a BEGIN the file never ends (psql rolls it back).
        case rollback
        /// BEGIN ... COMMIT: kept in the file's transaction (which is rolled back later).
        case commit
    }

    /// Statements that run together, and how they end.
    package struct Block: Sendable {
        package var ending: Ending
        package var statements: [Statement] = []
    }

    /// One statement and the file line it starts on.
    package struct Statement: Sendable {
        package var text: String
        /// The test file's line: the statement's own, or that of the include that brings it in.
        package var line: Int
        /// For a statement of an included file: that file, and the statement's line in it.
        package var included: (file: String, line: Int)?
        /// psql's `\set` and `\unset` that run before it is sent.
        var variables: [PsqlVariableCommand] = []
        /// The `\gset` after it: its arguments (the prefix), and how many lines below
        /// the statement's start it is.
        var gset: (arguments: String, lines: Int)?
    }

    package let file: String
    package let blocks: [Block]
    /// The files it includes, directly or not (`PsqlIncludes.identity(of:)`).
    package let included: Set<String>

    /// Cuts `text` (the file `file`) into blocks, with its includes inlined (`\i`
    /// relative to `workingDirectory`, nil for the current directory); throws
    /// `PgTAPError.refused` naming the file and line of a statement it cannot run, or
    /// `.include` for an include it cannot follow.
    package init(file: String, text: String, workingDirectory: String? = nil) throws {
        self.file = file
        var blocks: [Block] = []
        var open: Block?
        var loose = Block(ending: .none)
        var includes = PsqlIncludes(workingDirectory: workingDirectory)
        let located = try includes.statements(file: file, text: text)
        included = includes.included
        for item in located {
            let statement = item.statement
            func refuse(_ why: String) -> PgTAPError {
                .refused(
                    file: item.file, line: item.line,
                    reason: "'\(statement.keywords.prefix(3).joined(separator: " "))' \(why); "
                        + "pgwarden runs the suite in one transaction that it rolls back, each file in a savepoint of its own")
            }
            switch statement.kind {
            case .begin:
                guard open == nil else { throw refuse("opens a transaction inside another one (BEGIN inside BEGIN)") }
                if !loose.statements.isEmpty { blocks.append(loose) }
                loose = Block(ending: .none)
                open = Block(ending: .rollback)
            case .commit, .rollback:
                // With no BEGIN before it, psql's autocommit has already kept what came
                // before, and the server only warns ("there is no transaction in
                // progress"): a setup file ending in ROLLBACK leaves its helpers for the
                // files after it. So does pgwarden (the file's savepoint is kept).
                guard var block = open else { continue }
                block.ending = statement.kind == .commit ? .commit : .rollback
                blocks.append(block)
                open = nil
            case .twoPhase:
                throw refuse("is two-phase commit, which a test run never does")
            case .copyFromStdin:
                throw refuse("reads data that follows it in the file (COPY FROM STDIN); use INSERT in tests")
            default:
                var piece = Statement(
                    text: statement.text, line: item.testLine,
                    included: item.file == file ? nil : (item.file, item.line))
                piece.variables = item.variables
                piece.gset = item.gset.map { ($0.arguments, $0.line - item.line) }
                if open != nil { open?.statements.append(piece) } else { loose.statements.append(piece) }
            }
        }
        if let open { blocks.append(open) }
        if !loose.statements.isEmpty { blocks.append(loose) }
        self.blocks = blocks
    }

    /// Why `text` (a statement with psql variables interpolated) cannot be sent, or
    /// nil: it must still be one statement, and one pgwarden sends as it sends the
    /// file's own (no transaction control, no two-phase commit, no COPY FROM STDIN), so
    /// a variable's value can smuggle neither a second statement nor a COMMIT.
    static func refusal(interpolated text: String) -> String? {
        let statements = StatementSplitter.split(text)
        guard statements.count <= 1 else {
            return "is \(statements.count) statements once psql variables are interpolated; pgwarden sends one at a time"
        }
        switch statements.first?.kind {
        case .begin?, .commit?, .rollback?:
            return "is transaction control once psql variables are interpolated; pgwarden runs the suite in one "
                + "transaction that it rolls back, each file in a savepoint of its own"
        case .twoPhase?: return "is two-phase commit once psql variables are interpolated, which a test run never does"
        case .copyFromStdin?: return "reads data that follows it (COPY FROM STDIN) once psql variables are interpolated"
        default: return nil
        }
    }

    /// How many statements pgwarden sends for the file.
    package var statementCount: Int { blocks.reduce(0) { $0 + $1.statements.count } }
}
