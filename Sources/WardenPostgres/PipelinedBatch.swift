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

    /// The units, each a list of statements, in the order they are sent.
    public private(set) var units: [[SQL]] = []

    public init() {}

    /// Adds a unit; returns its index in the outcomes `Connection.run(_:)` returns.
    @discardableResult
    public mutating func add(_ statements: [SQL]) -> Int {
        units.append(statements)
        return units.count - 1
    }

    /// The number of statements in all units.
    public var statementCount: Int { units.reduce(0) { $0 + $1.count } }
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
        guard let first = batch.units.first(where: { !$0.isEmpty })?.first else {
            return batch.units.map { _ in [] }
        }
        let handle = try openHandle(for: first.text)
        guard PQenterPipelineMode(handle) == 1 else { throw failure(sql: first.text) }
        defer { PQexitPipelineMode(handle) }
        try send(batch, handle)
        var outcomes: [[PipelinedBatch.Outcome]] = []
        for unit in batch.units {
            var unitOutcomes: [PipelinedBatch.Outcome] = []
            for statement in unit {
                unitOutcomes.append(try readOutcome(handle, sql: statement.text))
            }
            try awaitUnitSync(handle, sql: unit.last?.text ?? first.text)
            outcomes.append(unitOutcomes)
        }
        return outcomes
    }

    private func send(_ batch: PipelinedBatch, _ handle: OpaquePointer) throws {
        PQsetnonblocking(handle, 1)
        defer { PQsetnonblocking(handle, 0) }
        var unflushed = 0
        for unit in batch.units {
            for statement in unit {
                try sendParams(handle, statement)
                unflushed += statement.text.utf8.count
            }
            guard PQpipelineSync(handle) == 1 else { throw failure(sql: unit.last?.text ?? "") }
            if unflushed >= 64 * 1024 {
                try flushReading(handle, sql: unit.last?.text ?? "")
                unflushed = 0
            }
        }
        try flushReading(handle, sql: batch.units.last?.last?.text ?? "")
    }

    private func sendParams(_ handle: OpaquePointer, _ statement: SQL) throws {
        let parameters = statement.bindings
        let cValues: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.flatMap { strdup($0) } }
        defer { cValues.forEach { free($0) } }
        let sent = cValues.withUnsafeBufferPointer { buffer -> Int32 in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                PQsendQueryParams(handle, statement.text, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
            }
        }
        guard sent == 1 else { throw failure(sql: statement.text) }
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
