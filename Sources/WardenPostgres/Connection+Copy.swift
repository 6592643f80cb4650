import CLibPQ

extension Connection {
    /// Runs one `COPY ... FROM STDIN` statement and streams `data` (the rows, in the
    /// COPY's text or CSV format) through libpq's COPY protocol (`PQputCopyData` in
    /// 64 KiB pieces, then `PQputCopyEnd`), as psql does for the rows after a COPY in
    /// a script. Returns the COPY's result (`affectedRows` is the row count).
    /// `unsafe`: the statement text is sent as it is (it comes from a file the user wrote).
    @discardableResult
    public func copyIn(unsafeStatement statement: String, data: String) throws -> QueryResult {
        let handle = try openHandle(for: statement)
        // The extended protocol: the statement text is one statement or an error; the
        // rows that follow go as CopyData messages, never parsed as SQL.
        guard PQsendQueryParams(handle, statement, 0, nil, nil, nil, nil, 0) == 1 else { throw failure(sql: statement) }
        var sendError: String?
        let results = try collectResults(handle, sql: statement) { handle in
            sendError = Self.putCopyData(handle, data)
            PQputCopyEnd(handle, sendError)
        }
        if let sendError { throw PGError(kind: .connection, message: "sending COPY data failed: \(sendError)") }
        return results.last ?? QueryResult(commandTag: "", columns: [], rows: [], affectedRows: nil)
    }

    /// Sends the data in pieces; returns libpq's message when sending fails.
    private static func putCopyData(_ handle: OpaquePointer, _ data: String) -> String? {
        var text = data
        return text.withUTF8 { bytes -> String? in
            guard let base = bytes.baseAddress else { return nil }
            let piece = 64 * 1024
            var start = 0
            while start < bytes.count {
                let count = min(piece, bytes.count - start)
                let sent = base.advanced(by: start).withMemoryRebound(to: CChar.self, capacity: count) {
                    PQputCopyData(handle, $0, Int32(count))
                }
                if sent != 1 { return errorMessage(handle) }
                start += count
            }
            return nil
        }
    }
}
