import CLibPQ
import Foundation

/// One open connection to a PostgreSQL server. Owns its `PGconn` and closes it
/// (`PQfinish`) exactly once, in `deinit` or on `close()`.
///
/// A connection is used by one thread at a time; libpq calls block.
public final class Connection {
    private(set) var handle: OpaquePointer?
    /// The settings it was opened with (redacted in every description).
    public let settings: ConnectionSettings
    private let noticeSink: NoticeSink
    /// Names savepoints uniquely within this connection.
    var savepointCounter = 0
    /// Names prepared statements uniquely within this connection.
    private var preparedStatementCounter = 0
    /// How many exchanges with the server (a query, a statement, a pipelined batch:
    /// each one round trip) this connection has started, for tests that count them.
    package private(set) var roundTrips = 0

    /// A prepared statement name not used before on this connection.
    package func nextPreparedStatementName() -> String {
        preparedStatementCounter += 1
        return "pgwarden_plan_\(preparedStatementCounter)"
    }

    /// While a pipelined batch's answers are read, the statement being read: a server
    /// notice handed to `onNotice` then was raised by that statement (libpq parses a
    /// notice when it reads it, and a later statement's answer starts with its Parse
    /// or Bind completion, which is not read ahead).
    package internal(set) var readingStatement: (unit: Int, index: Int)?

    /// The named statements a pipelined batch prepared (their Parse succeeded) and no
    /// `deallocatePreparedStatements()` has removed yet.
    package internal(set) var preparedStatements: [String] = []

    /// Deallocates every statement a pipelined batch prepared, in one round trip (a
    /// prepared statement is the session's: a rollback does not remove it).
    package func deallocatePreparedStatements() throws {
        guard !preparedStatements.isEmpty else { return }
        var batch = PipelinedBatch()
        _ = batch.add(deallocations)
        let outcomes = try run(batch)
        preparedStatements = []
        for outcome in outcomes.joined() { _ = try outcome.get() }
    }

    /// A DEALLOCATE for each statement still prepared, in the order they were.
    var deallocations: [SQL] { preparedStatements.map { "deallocate \(identifier: $0)" } }

    /// Opens a connection; throws a redacted `PGError(kind: .connection)` on failure.
    ///
    /// - Parameter onNotice: receives server notices (NOTICE, WARNING, ...) instead of
    ///   libpq's default of printing them on standard error. Default: drop them.
    public init(
        _ settings: ConnectionSettings = .environment,
        onNotice: @escaping (PGNotice) -> Void = { _ in }
    ) throws {
        try LibPQLoading.require()
        self.settings = settings
        self.noticeSink = NoticeSink(onNotice)
        // Refused before libpq reads it: it would look a piece of the password up as a
        // host name (a DNS query) and print it back in its error.
        if settings.hasStrayAtSign {
            handle = nil
            throw PGError(
                kind: .invalidConnectionString,
                message: "not connecting to \(settings.conninfo.prefix { $0 != ":" })://\(Redaction.mask): the URL has an '@' or '/' in its user name or password that is not percent-encoded, so libpq would read part of it as the host, port or database name; write '@' as %40 and '/' as %2F")
        }
        handle = Self.connect(settings)
        guard let handle else {
            throw PGError(kind: .client, message: "out of memory while connecting")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            // libpq's message may span lines ("...failed: ...\n\tIs the server running...?").
            let message = settings.scrub(Self.errorMessage(handle))
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: "; ")
            PQfinish(handle)
            self.handle = nil
            throw PGError(
                kind: .connection,
                message: "could not connect to \(settings.redacted): \(message)",
                sqlState: Self.connectionSQLState(message))
        }
        PQsetNoticeReceiver(handle, noticeReceiver, Unmanaged.passUnretained(noticeSink).toOpaque())
    }

    deinit { close() }

    /// Closes the connection now. Safe to call more than once.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// The notice handler now in place (to chain to it, or to put it back).
    public var noticeHandler: (PGNotice) -> Void { noticeSink.handler }

    /// Replaces the notice handler.
    public func onNotice(_ handler: @escaping (PGNotice) -> Void) {
        noticeSink.handler = handler
    }

    /// The server's version as an integer, e.g. 150018 for 15.18.
    public var serverVersion: Int { handle.map { Int(PQserverVersion($0)) } ?? 0 }

    /// True while the connection is open and not in a failed state.
    public var isOpen: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The transaction state: idle, in a transaction, or in a failed transaction.
    public var transactionStatus: TransactionStatus {
        guard let handle else { return .unknown }
        switch PQtransactionStatus(handle) {
        case PQTRANS_IDLE: return .idle
        case PQTRANS_INTRANS: return .inTransaction
        case PQTRANS_INERROR: return .failed
        case PQTRANS_ACTIVE: return .active
        default: return .unknown
        }
    }

    /// Runs trusted SQL text that may hold many statements (simple query protocol, as
    /// `psql -c` and a migration file need). Returns one result per statement that
    /// completed. On the first error the server skips the rest; the thrown error's
    /// `completedStatements` says how many ran before it.
    ///
    /// `unsafe`: the text goes to the server as it is. Use it only for text that is
    /// SQL by construction (a file the user wrote); build everything else with `SQL`
    /// and `execute(_:)` / `query(_:)`, which bind values.
    @discardableResult
    public func execute(unsafeScript sql: String) throws -> [QueryResult] {
        let handle = try openHandle(for: sql)
        guard PQsendQuery(handle, sql) == 1 else {
            throw failure(sql: sql)
        }
        return try collectResults(handle, sql: sql)
    }

    /// Runs one statement of trusted text with `$1, $2, ...` parameters bound as text
    /// (never spliced into the SQL); `nil` binds SQL NULL.
    ///
    /// `unsafe`: the text itself is sent as it is. Prefer `query(_ sql: SQL)`, which
    /// numbers the placeholders and binds the values for you.
    @discardableResult
    public func query(unsafeSQL sql: String, parameters: [String?] = []) throws -> QueryResult {
        let handle = try openHandle(for: sql)
        let cValues: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.flatMap { strdup($0) } }
        defer { cValues.forEach { free($0) } }
        let sent = cValues.withUnsafeBufferPointer { buffer -> Int32 in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                PQsendQueryParams(handle, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
            }
        }
        guard sent == 1 else { throw failure(sql: sql) }
        let results = try collectResults(handle, sql: sql)
        return results.last ?? QueryResult(commandTag: "", columns: [], rows: [], affectedRows: nil)
    }

    /// Asks the server to cancel whatever this connection is running. Callable from
    /// another thread (e.g. a signal handler's queue).
    public func makeCanceller() -> Canceller? {
        guard let handle, let cancel = PQgetCancel(handle) else { return nil }
        return Canceller(cancel)
    }

    /// Whether a server accepts connections (libpq's `PQpingParams`), without
    /// authenticating: used to wait for a server that is starting.
    public static func ping(_ settings: ConnectionSettings) -> PingResult {
        guard LibPQLoading.failure == nil else { return .noResponse }
        let status = withCStringArray(["dbname"]) { keywords in
            withCStringArray([settings.conninfo]) { values in PQpingParams(keywords, values, 1) }
        }
        switch status {
        case PQPING_OK: return .accepting
        case PQPING_REJECT: return .rejecting
        case PQPING_NO_RESPONSE: return .noResponse
        default: return .invalidSettings
        }
    }

    // MARK: - libpq plumbing

    private static func connect(_ settings: ConnectionSettings) -> OpaquePointer? {
        // Keywords are processed in order and later ones win, so the user's string
        // (expanded from `dbname`) overrides our fallbacks, and client_encoding is
        // forced to UTF8 because values are decoded as UTF-8.
        var keywords = ["fallback_application_name"]
        var values = ["pgwarden"]
        if getenv("PGCONNECT_TIMEOUT") == nil {
            keywords.append("connect_timeout")
            values.append("10")
        }
        keywords += ["dbname", "client_encoding"]
        values += [settings.conninfo, "UTF8"]
        return withCStringArray(keywords) { keywordPointers in
            withCStringArray(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
    }

    func openHandle(for sql: String) throws -> OpaquePointer {
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            var error = PGError(kind: .connection, message: "the connection is closed")
            error.sql = sql
            throw error
        }
        roundTrips += 1
        return handle
    }

    func failure(sql: String) -> PGError {
        let message = handle.map { settings.scrub(Self.errorMessage($0)) } ?? "connection closed"
        var error = PGError(kind: isOpen ? .client : .connection, message: message)
        error.sql = sql
        return error
    }

    /// Reads every result of a sent query. `copyIn` feeds a `COPY ... FROM STDIN`
    /// (it sends the data and ends the copy); without it such a COPY is refused.
    func collectResults(_ handle: OpaquePointer, sql: String, copyIn: ((OpaquePointer) -> Void)? = nil) throws
        -> [QueryResult]
    {
        let read = readResults(handle, sql: sql, copyIn: copyIn)
        if let error = read.error { throw error }
        if PQstatus(handle) != CONNECTION_OK { throw failure(sql: sql) }
        return read.results
    }

    /// What libpq has for the statement being read, up to its terminating null result.
    struct StatementResults {
        var results: [QueryResult] = []
        /// The first error (`completedStatements`: the results before it).
        var error: PGError?
        /// In pipeline mode: skipped, an earlier statement of its unit having failed.
        var aborted = false
    }

    /// Reads every result of one statement: rows and command tags, the first error,
    /// COPY FROM STDIN fed by `copyIn` (or refused), COPY TO STDOUT's data discarded.
    /// The one reader behind `collectResults` and the pipelined batches.
    func readResults(_ handle: OpaquePointer, sql: String, copyIn: ((OpaquePointer) -> Void)? = nil)
        -> StatementResults
    {
        var read = StatementResults()
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                if read.error == nil { read.results.append(Self.makeResult(result)) }
            case PGRES_EMPTY_QUERY:
                continue
            case PGRES_COPY_IN:
                if let copyIn, read.error == nil {
                    copyIn(handle)
                } else {
                    PQputCopyEnd(handle, "pgwarden sends COPY FROM STDIN data only with the rows that follow it in a file")
                }
            case PGRES_COPY_OUT:
                Self.discardCopyOut(handle)
            case PGRES_PIPELINE_ABORTED:
                read.aborted = true
            default:
                if read.error == nil {
                    var error = ServerErrorFields.error(from: result, sql: sql, settings: settings)
                    error.completedStatements = read.results.count
                    read.error = error
                }
            }
        }
        return read
    }

    private static func discardCopyOut(_ handle: OpaquePointer) {
        var buffer: UnsafeMutablePointer<CChar>?
        while PQgetCopyData(handle, &buffer, 0) > 0 {
            PQfreemem(buffer)
        }
    }

    static func makeResult(_ result: OpaquePointer) -> QueryResult {
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        var rows: [[String?]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            rows.append((0..<columnCount).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1
                    ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            })
        }
        let affected = String(cString: PQcmdTuples(result))
        return QueryResult(
            commandTag: String(cString: PQcmdStatus(result)), columns: columns, rows: rows,
            affectedRows: Int(affected))
    }

    static func errorMessage(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingWhitespace()
    }

    private static func connectionSQLState(_ message: String) -> SQLState {
        if message.contains("password authentication failed") { return .invalidPassword }
        if message.contains("does not exist") && message.contains("database") { return .invalidCatalogName }
        return .sqlClientUnableToEstablishConnection
    }
}

/// What `Connection.ping` found.
public enum PingResult: Sendable {
    /// The server accepts connections.
    case accepting
    /// The server is up but refuses connections (starting up, shutting down).
    case rejecting
    /// No server answered.
    case noResponse
    /// The settings themselves are invalid.
    case invalidSettings
}

/// Whether a transaction is open on a connection.
public enum TransactionStatus: Sendable {
    case idle, active, inTransaction, failed, unknown
}

/// Sends a cancel request for a connection's running statement; owns a `PGcancel`.
public final class Canceller: @unchecked Sendable {
    private let pgCancel: OpaquePointer
    init(_ pgCancel: OpaquePointer) { self.pgCancel = pgCancel }
    deinit { PQfreeCancel(pgCancel) }

    /// Asks the server to cancel the current statement; returns false if the request failed.
    @discardableResult
    public func cancel() -> Bool {
        var buffer = [CChar](repeating: 0, count: 256)
        return PQcancel(pgCancel, &buffer, Int32(buffer.count)) == 1
    }
}

private func withCStringArray<R>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
) -> R {
    let duplicates: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { duplicates.forEach { free($0) } }
    return duplicates.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { body($0.baseAddress!) }
    }
}
