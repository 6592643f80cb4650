import WardenPostgres

/// Runs a pgTAP suite the way `supabase test db` does, on a connection as the project
/// role (`postgres` on Supabase and the twin), and reads the TAP itself.
///
/// The whole run is one transaction that is rolled back (so even `create extension
/// pgtap`, when pgTAP was missing, leaves nothing): nothing is ever committed. Each
/// file runs as pg_prove runs it, in a session of its own, as far as one transaction
/// can: it starts from a reset session (`sessionReset`: the role, settings, temporary
/// tables and cached plans a fresh connection has; `ConstraintModeReset`: each
/// constraint's mode as a new transaction has it), and what it changes in the
/// database outside its own `BEGIN ... ROLLBACK` stays for the files after it, as psql's
/// autocommit keeps it under pg_prove (a setup file's helper functions, say); a file
/// that fails is rolled back whole. Each statement is sent on its own, as the extended protocol's one
/// statement (the server refuses a second one), after `PgTAPScript` has taken out
/// the file's own BEGIN/COMMIT/ROLLBACK; after each, the connection must still be in
/// the run's transaction. A SQL error stops its file (as `psql -v ON_ERROR_STOP=1`
/// under pg_prove does) and fails it, naming the line; the next file still runs.
///
/// A block's statements are pipelined (`PipelinedBatch`, one unit): one round trip
/// per block instead of one per statement, which is what a test run over a network
/// costs (issue 18). Each statement is followed by a guard that fails unless the
/// run's transaction is still the one it began (a statement that ended it would make
/// the guard fail in a new one); a failure stops the rest of the unit, as the
/// per-statement check stopped the file, so nothing runs after it.
package struct PgTAPRunner {
    let connection: Connection
    /// Each file with its script, or why it cannot run (then it fails and nothing of it
    /// is sent).
    let scripts: [(file: String, script: Result<PgTAPScript, PgTAPError>)]

    package init(connection: Connection, scripts: [(file: String, script: Result<PgTAPScript, PgTAPError>)]) {
        self.connection = connection
        self.scripts = scripts
    }

    /// One result per file, in order.
    package func run() throws -> [TestSuiteResult] {
        // Files other files include: run on their own too (pg_prove does), a failure
        // there says so.
        let included = scripts.reduce(into: Set<String>()) { $0.formUnion((try? $1.script.get())?.included ?? []) }
        return try connection.rolledBack {
            let onSearchPath = try PgTAPExtension(connection: connection).ensure()
            let transaction = try connection.query("select txid_current()::text").scalar ?? ""
            var firstStopped: EarlierStop?
            return try scripts.map { entry in
                let script: PgTAPScript
                switch entry.script {
                case .failure(let error): return PgTAPFileOutcome(file: entry.file, notRun: error).suite
                case .success(let success): script = success
                }
                try connection.execute(Self.sessionReset + [ConstraintModeReset.statement] + [onSearchPath].compactMap { $0 })
                var outcome = try run(script, transaction: transaction, after: firstStopped)
                outcome.isIncluded = included.contains(PsqlIncludes.identity(of: script.file))
                if firstStopped == nil, let stop = outcome.stop { firstStopped = EarlierStop(file: script.file, stop: stop) }
                return outcome.suite
            }
        }
    }

    /// What a file's own session under pg_prove would start without, undone in the
    /// run's transaction (so the caller's session is as it was once the run is rolled
    /// back): the role a file switched to, every setting (`reset all` returns them to
    /// the role's and the connection's defaults), temporary tables (pgTAP's own
    /// bookkeeping among them), cached plans, sequence values and prepared statements
    /// (two files that each `prepare count_t` failed with 42P05 in one session). Each is
    /// allowed in a transaction block (`discard all` is not).
    static let sessionReset: [SQL] = [
        "reset role", "reset all", "discard temp", "discard plans", "discard sequences", "deallocate all",
    ]

    /// Stops the rest of its pipelined unit unless it runs in the run's transaction.
    private static func guardSQL(transaction: String) -> SQL {
        PipelineGuard.unless("txid_current()::text = \(transaction)")
    }

    /// The first file of the run that a SQL error stopped: what it was to leave for the
    /// files after it (a setup file's schema `tests`, say) may be what they miss.
    private struct EarlierStop {
        var file: String
        var stop: PgTAPFileOutcome.Stop

        /// Errors that say an object is missing: schema, relation, function, type.
        static let missingObject: Set<SQLState> = ["3F000", .undefinedTable, .undefinedFunction, .undefinedObject]

        /// The note added to a later file's missing-object error.
        var note: String {
            " (an earlier file, \(file), stopped at \(stop.place) before this one ran: "
                + "if it creates what this file uses, fix it first)"
        }
    }

    private func run(_ script: PgTAPScript, transaction: String, after earlier: EarlierStop?) throws -> PgTAPFileOutcome {
        var outcome = PgTAPFileOutcome(file: script.file)
        let began = ContinuousClock.now
        var current: PgTAPScript.Statement?
        var variables = PsqlVariables()
        do {
            try connection.savepoint {
                for block in script.blocks {
                    try run(block, script: script, transaction: transaction, variables: &variables,
                            outcome: &outcome, current: &current)
                }
            }
        } catch let error as FileStop {
            outcome.stop = error.stop
        } catch let error as PGError where current != nil {
            outcome.stop = Self.stop(error, in: current!)
            if let earlier, let state = error.sqlState, EarlierStop.missingObject.contains(state) {
                outcome.stop?.message += earlier.note
            }
        } catch let error as TransactionError where current != nil {
            // The file's own ROLLBACK TO/RELEASE removed pgwarden's savepoint: the file
            // fails; the run's transaction is still rolled back at the end.
            outcome.stop = .init(line: current!.line, message: "\(error)")
            guard connection.transactionStatus != .idle else { throw error }
        }
        outcome.duration = ContinuousClock.now - began
        return outcome
    }

    /// What stops a file that is not a SQL error: a `\gset` without exactly one row,
    /// a statement that interpolation made unsendable.
    private struct FileStop: Error {
        var stop: PgTAPFileOutcome.Stop
    }

    /// Runs a block's statements, pipelined: all of them in one unit, or, when a
    /// `\gset` must store a row before the statements after it are interpolated, a unit
    /// up to each `\gset`. A file with no psql variables is sent as it was read.
    private func run(_ block: PgTAPScript.Block, script: PgTAPScript, transaction: String,
                     variables: inout PsqlVariables, outcome: inout PgTAPFileOutcome,
                     current: inout PgTAPScript.Statement?) throws
    {
        func statements() throws {
            var pending: [PgTAPScript.Statement] = []
            for var statement in block.statements {
                for command in statement.variables { variables.run(command) }
                let text = variables.interpolate(statement.text)
                if text != statement.text {
                    if let why = PgTAPScript.refusal(interpolated: text) {
                        try send(pending, script: script, transaction: transaction, outcome: &outcome, current: &current)
                        throw FileStop(stop: Self.stop(statement, lines: 0, label: "not sent", message: "the statement " + why))
                    }
                    statement.text = text
                }
                pending.append(statement)
                guard let gset = statement.gset else { continue }
                let result = try send(pending, script: script, transaction: transaction, outcome: &outcome, current: &current)
                pending = []
                func fail(_ message: String) -> FileStop {
                    FileStop(stop: Self.stop(statement, lines: gset.lines, label: "psql error", message: message))
                }
                guard let result, result.rows.count == 1 else {
                    throw fail((result?.rows.isEmpty ?? true ? "no rows" : "more than one row") + " returned for \\gset")
                }
                do {
                    try variables.store(result.rows[0], columns: result.columns, prefix: variables.prefix(gset.arguments))
                } catch {
                    throw fail(error.reason)
                }
            }
            try send(pending, script: script, transaction: transaction, outcome: &outcome, current: &current)
        }
        switch block.ending {
        case .none: try statements()
        case .rollback: try connection.rolledBackSavepoint { try statements() }
        case .commit: try connection.savepoint { try statements() }
        }
    }

    /// Sends `statements` as one pipelined unit and reads their TAP, except for a last
    /// statement with a `\gset`: its result is returned, for its variables.
    @discardableResult
    private func send(_ statements: [PgTAPScript.Statement], script: PgTAPScript, transaction: String,
                      outcome: inout PgTAPFileOutcome, current: inout PgTAPScript.Statement?) throws -> QueryResult?
    {
        guard !statements.isEmpty else { return nil }
        let guardSQL = Self.guardSQL(transaction: transaction)
        var batch = PipelinedBatch()
        batch.add(statements.flatMap { [SQL(raw: $0.text), guardSQL] })
        let outcomes = try connection.run(batch)[0]
        var stored: QueryResult?
        for (index, statement) in statements.enumerated() {
            current = statement
            let result = try outcomes[2 * index].get()
            if statement.gset != nil, index == statements.count - 1 {
                stored = result
            } else {
                for row in result.rows {
                    outcome.tap.read(row.map { $0 ?? "" }.joined(separator: "|"), line: statement.line)
                }
            }
            if case .error(let error) = outcomes[2 * index + 1] {
                // Anything but the guard's own division by zero (a limit the file set,
                // say) is reported as the statement's failure.
                guard PipelineGuard.tripped(error) else { throw error }
                throw PgTAPError.sealBroken(
                    file: script.file, line: statement.line, what: "the statement ended pgwarden's transaction")
            }
        }
        guard connection.transactionStatus == .inTransaction || connection.transactionStatus == .failed else {
            throw PgTAPError.sealBroken(
                file: script.file, line: statements.last?.line ?? 0, what: "the statement ended pgwarden's transaction")
        }
        return stored
    }

    /// A stop at `statement`, `lines` below its start (in its included file, for one
    /// that an include brought in).
    static func stop(_ statement: PgTAPScript.Statement, lines: Int, label: String, message: String) -> PgTAPFileOutcome.Stop {
        var stop = PgTAPFileOutcome.Stop(
            line: statement.included == nil ? statement.line + lines : statement.line, message: message,
            included: statement.included.map { ($0.file, $0.line + lines) })
        stop.label = label
        return stop
    }

    /// Where the error points: the statement's line (in its included file, for one
    /// that an include brought in), moved down by the line breaks before the server's
    /// error position in it.
    static func stop(_ error: PGError, in statement: PgTAPScript.Statement) -> PgTAPFileOutcome.Stop {
        var breaks = 0
        if let position = error.position, position > 1 {
            breaks = statement.text.unicodeScalars.prefix(position - 1).reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
        }
        guard let included = statement.included else {
            return .init(line: statement.line + breaks, message: message(error))
        }
        return .init(line: statement.line, message: message(error), included: (included.file, included.line + breaks))
    }

    /// SQLSTATE and message, with detail and hint when the server gave them.
    static func message(_ error: PGError) -> String {
        var text = error.message
        if let state = error.sqlState { text = "\(state.rawValue): " + text }
        if let detail = error.detail { text += " (detail: \(detail))" }
        if let hint = testHelpersHint(for: error) ?? TwinGapHint.hint(for: error) ?? SupabaseRestrictionHint.hint(for: error)
            ?? error.hint { text += " (hint: \(hint))" }
        return text
    }

    /// pg_tle missing in a test file: the setup file of Supabase's testing guide
    /// (`000-setup-tests-hooks.sql`) installs basejump's test helpers through dbdev,
    /// which needs pg_tle and a download from database.dev, neither of which a local
    /// server has; the helpers' README offers their SQL as a first test file instead
    /// (usebasejump/supabase-test-helpers README.md, "Manual Installation").
    static func testHelpersHint(for error: PGError) -> String? {
        guard MissingExtension(error)?.name == "pg_tle" else { return nil }
        return "this server lacks pg_tle, which Supabase provides and no Debian package does. Supabase's testing guide "
            + "installs the test helpers (basejump-supabase_test_helpers) with dbdev, which needs pg_tle and a download from "
            + "database.dev; locally, put the SQL of the helpers' latest version (supabase_test_helpers--<version>.sql of "
            + "usebasejump/supabase-test-helpers) in the suite's first file instead, e.g. "
            + "supabase/tests/00000-supabase_test_helpers.sql, with a test after it (its README's manual installation), "
            + "or run against a server that has pg_tle (--database-url)"
    }
}
