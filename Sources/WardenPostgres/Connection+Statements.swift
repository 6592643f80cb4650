import CLibPQ
import Foundation

extension Connection {
    /// Runs exactly one statement, through the extended query protocol (Parse, Bind,
    /// Execute, Sync), with no parameters.
    ///
    /// The server parses the text of one Parse message as one statement: text that
    /// holds a second statement is refused with 42601 ("cannot insert multiple commands
    /// into a prepared statement") before any of it runs. So a text that pgwarden's
    /// splitter took for one statement can never carry a COMMIT or a second statement
    /// past the checks made on it.
    ///
    /// `unsafe`: the text is sent as it is (a statement the splitter cut from a file
    /// the user wrote). Build any other SQL with `SQL` and `query(_:)`.
    @discardableResult
    public func execute(unsafeStatement statement: String) throws -> QueryResult {
        let handle = try openHandle(for: statement)
        guard PQsendQueryParams(handle, statement, 0, nil, nil, nil, nil, 0) == 1 else {
            throw failure(sql: statement)
        }
        let results = try collectResults(handle, sql: statement)
        return results.last ?? QueryResult(commandTag: "", columns: [], rows: [], affectedRows: nil)
    }

    /// Runs statements in order, each as one extended-protocol message (see
    /// `execute(unsafeStatement:)`), pipelined: all are sent, then one Sync, then the results
    /// are read, so the whole list costs one round trip.
    ///
    /// The server stops at the first error: the thrown `PGError` has `sql` set to the
    /// failing statement and `completedStatements` to its index; nothing after it ran.
    /// Between the statements no Sync is sent, so outside a transaction block they run
    /// in one implicit transaction (use `execute(unsafeStatement:)` for statements such as
    /// `CREATE INDEX CONCURRENTLY` that refuse one). COPY cannot be pipelined.
    @discardableResult
    public func execute(unsafeStatements statements: [String]) throws -> [QueryResult] {
        if statements.count == 1 { return [try execute(unsafeStatement: statements[0])] }
        return try execute(statements.map { SQL(raw: $0) })
    }

    /// Runs `SQL` statements in order, pipelined in one unit (one round trip), each
    /// its own extended-protocol message with its values bound. The first error is
    /// thrown, with `completedStatements` set to the failing statement's index; nothing
    /// after it ran.
    @discardableResult
    public func execute(_ statements: [SQL]) throws -> [QueryResult] {
        var results: [QueryResult] = []
        for (index, outcome) in try run(unit: statements).enumerated() {
            switch outcome {
            case .result(let result): results.append(result)
            case .error(var error):
                error.completedStatements = index
                throw error
            case .skipped: break  // only after an error, thrown above
            }
        }
        return results
    }

    /// Flushes libpq's output buffer; while the socket is full, consumes input.
    func flushReading(_ handle: OpaquePointer, sql: String) throws {
        while true {
            let status = PQflush(handle)
            if status == 0 { return }
            guard status == 1 else { throw failure(sql: sql) }
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN | POLLOUT), revents: 0)
            guard poll(&descriptor, 1, -1) >= 0 || errno == EINTR else { throw failure(sql: sql) }
            if descriptor.revents & Int16(POLLIN) != 0, PQconsumeInput(handle) != 1 {
                throw failure(sql: sql)
            }
        }
    }
}
