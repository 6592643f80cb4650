import CLibPQ
import Foundation

/// Statements sent together with libpq's pipeline mode, in units, so that a whole
/// batch costs one round trip however many statements it holds.
///
/// Each statement goes as its own extended-protocol message (Parse, Bind, Execute;
/// its values bound as parameters, never spliced), so, as with
/// `Connection.execute(unsafeStatement:)`, text holding a second statement is refused by
/// the server (42601) before any of it runs. Each unit ends with a Sync: when a
/// statement fails, the server skips the rest of that unit only (they are reported
/// as `.skipped`) and goes on with the next unit. Inside a transaction block a Sync
/// neither commits nor ends anything; a failed statement leaves the transaction
/// aborted until a later unit rolls back to a savepoint, so callers put the
/// `rollback to savepoint` that undoes a unit in a unit of its own.
public struct PipelinedBatch {
    /// What came of one statement.
    public enum Outcome {
        case result(QueryResult)
        case error(PGError)
        /// Not run: an earlier statement of its unit failed, and the server skipped
        /// the rest of the unit.
        case skipped

        /// Whether the statement ran without error.
        package var succeeded: Bool {
            if case .result = self { return true }
            return false
        }

        /// The result, or the statement's error thrown (`.skipped` throws a client error).
        public func get() throws -> QueryResult {
            switch self {
            case .result(let result): return result
            case .error(let error): throw error
            case .skipped:
                throw PGError(kind: .client, message: "the statement was skipped after an earlier error in its unit")
            }
        }
    }

    /// One statement of a unit and how it is sent: unnamed (Parse, Bind, Execute, as
    /// `SQL` alone is), or as a named prepared statement whose parse analysis and plan
    /// the server keeps for later statements of the same text (`preparing`, `reusing`).
    package struct Statement {
        let sql: SQL
        /// `sql.text` and `sql.bindings`, built once (the text is read to send, to
        /// count what is unflushed, and to name the statement in errors).
        package let text: String
        let bindings: [String?]
        /// The prepared statement's name; nil: unnamed.
        private(set) var name: String?
        /// Whether this message prepares `name` (Parse) before running it; false: it
        /// runs one an earlier message prepared (Bind, Execute only).
        private(set) var prepares = false

        /// Sent unnamed, as `SQL` alone is.
        package init(_ sql: SQL) {
            self.sql = sql
            text = sql.text
            bindings = sql.bindings
        }

        /// Prepares `name` from the statement's text, then runs it. When the Parse
        /// fails, the statement's outcome is that error (and the rest of its unit is
        /// skipped).
        package func preparing(as name: String) -> Statement {
            var copy = self
            copy.name = name
            copy.prepares = true
            return copy
        }

        /// Runs the statement an earlier message prepared as `name`, with this one's
        /// values. When it was never prepared (its Parse failed or was skipped), the
        /// outcome is 26000 (`invalid_sql_statement_name`).
        package func reusing(_ name: String) -> Statement {
            var copy = self
            copy.name = name
            copy.prepares = false
            return copy
        }
    }

    /// The units, each a list of statements, in the order they are sent.
    private(set) var statements: [[Statement]] = []

    /// The units' statements, in the order they are sent.
    public var units: [[SQL]] { statements.map { $0.map(\.sql) } }

    public init() {}

    /// Adds a unit; returns its index in the outcomes `Connection.run(_:)` returns.
    @discardableResult
    public mutating func add(_ statements: [SQL]) -> Int {
        add(statements: statements.map(Statement.init))
    }

    /// Adds a unit of statements some of which may be named prepared statements.
    @discardableResult
    package mutating func add(statements unit: [Statement]) -> Int {
        statements.append(unit)
        return statements.count - 1
    }

    /// The number of statements in all units.
    public var statementCount: Int { statements.reduce(0) { $0 + $1.count } }
}

extension Connection {
    /// Sends `statements` as one unit (one round trip, one Sync: after a failed
    /// statement the rest are skipped) and reads each one's outcome. Throws only when
    /// the connection fails.
    public func run(unit statements: [SQL]) throws -> [PipelinedBatch.Outcome] {
        var batch = PipelinedBatch()
        batch.add(statements)
        return try run(batch)[0]
    }

    /// Sends every unit of `batch` at once (pipeline mode, one Sync per unit), then
    /// reads every statement's outcome: its result, its error, or that it was skipped.
    /// Never stops at a statement's error; throws only when the connection fails.
    /// Returns one list of outcomes per unit, one outcome per statement.
    public func run(_ batch: PipelinedBatch) throws -> [[PipelinedBatch.Outcome]] {
        guard let first = batch.statements.first(where: { !$0.isEmpty })?.first else {
            return batch.statements.map { _ in [] }
        }
        let stream = try PipelineStream(self, first: first.text)
        for unit in batch.statements { try stream.send(unit) }
        return try stream.finish()
    }

    /// Reads the outcomes of `units`, sent in pipeline mode, in order.
    func readOutcomes(of units: [[PipelinedBatch.Statement]], _ handle: OpaquePointer) throws
        -> [[PipelinedBatch.Outcome]]
    {
        var outcomes: [[PipelinedBatch.Outcome]] = []
        defer { readingStatement = nil }
        for (unitIndex, unit) in units.enumerated() {
            var unitOutcomes: [PipelinedBatch.Outcome] = []
            for (statementIndex, statement) in unit.enumerated() {
                readingStatement = (unitIndex, statementIndex)
                let text = statement.text
                if statement.prepares, let name = statement.name {
                    let parse = try readOutcome(handle, sql: text)
                    if !parse.succeeded {
                        _ = try readOutcome(handle, sql: text)  // the run, skipped after the failed Parse
                        unitOutcomes.append(parse)
                        continue
                    }
                    preparedStatements.append(name)
                }
                unitOutcomes.append(try readOutcome(handle, sql: text))
            }
            try awaitUnitSync(handle, sql: unit.last?.text ?? "")
            outcomes.append(unitOutcomes)
        }
        return outcomes
    }

    func send(_ handle: OpaquePointer, _ statement: PipelinedBatch.Statement) throws {
        let text = statement.text
        let parameters = statement.bindings
        if let name = statement.name, statement.prepares {
            guard PQsendPrepare(handle, name, text, Int32(parameters.count), nil) == 1 else {
                throw failure(sql: text)
            }
        }
        let cValues: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.flatMap { strdup($0) } }
        defer { cValues.forEach { free($0) } }
        let sent = cValues.withUnsafeBufferPointer { buffer -> Int32 in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                if let name = statement.name {
                    return PQsendQueryPrepared(handle, name, Int32(parameters.count), values.baseAddress, nil, nil, 0)
                }
                return PQsendQueryParams(handle, text, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
            }
        }
        guard sent == 1 else { throw failure(sql: text) }
    }

    /// One statement's results up to its terminating null result.
    private func readOutcome(_ handle: OpaquePointer, sql: String) throws -> PipelinedBatch.Outcome {
        let read = readResults(handle, sql: sql)
        guard PQstatus(handle) == CONNECTION_OK else { throw failure(sql: sql) }
        if let error = read.error { return .error(error) }
        if read.aborted { return .skipped }
        return .result(read.results.first ?? QueryResult(commandTag: "", columns: [], rows: [], affectedRows: nil))
    }

    /// Reads the unit's Sync.
    private func awaitUnitSync(_ handle: OpaquePointer, sql: String) throws {
        while PQstatus(handle) == CONNECTION_OK, let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { return }
        }
        throw failure(sql: sql)
    }
}
