import CLibPQ

/// Maps libpq's error fields (`PQresultErrorField`, the `PG_DIAG_*` codes) onto `PGError`.
enum ServerErrorFields {
    // The PG_DIAG_* macros are character constants in libpq-fe.h / postgres_ext.h.
    static let severityCode = Int32(UInt8(ascii: "V"))  // non-localized severity
    static let sqlStateCode = Int32(UInt8(ascii: "C"))
    static let messageCode = Int32(UInt8(ascii: "M"))
    static let detailCode = Int32(UInt8(ascii: "D"))
    static let hintCode = Int32(UInt8(ascii: "H"))
    static let positionCode = Int32(UInt8(ascii: "P"))
    static let internalPositionCode = Int32(UInt8(ascii: "p"))
    static let internalQueryCode = Int32(UInt8(ascii: "q"))
    static let contextCode = Int32(UInt8(ascii: "W"))
    static let schemaCode = Int32(UInt8(ascii: "s"))
    static let tableCode = Int32(UInt8(ascii: "t"))
    static let columnCode = Int32(UInt8(ascii: "c"))
    static let constraintCode = Int32(UInt8(ascii: "n"))

    static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        guard let value = PQresultErrorField(result, code) else { return nil }
        return String(cString: value)
    }

    /// Builds the error for a failed result; message text is scrubbed of secrets.
    static func error(from result: OpaquePointer, sql: String, settings: ConnectionSettings) -> PGError {
        let get = { (code: Int32) in field(result, code) }
        let fallback = String(cString: PQresultErrorMessage(result)).trimmingWhitespace()
        let sqlState = get(sqlStateCode).map(SQLState.init(rawValue:))
        var error = PGError(
            kind: sqlState == nil ? .client : .server,
            message: settings.scrub(get(messageCode) ?? (fallback.isEmpty ? "unknown error" : fallback)),
            sqlState: sqlState,
            severity: get(severityCode),
            detail: get(detailCode).map(settings.scrub),
            hint: get(hintCode),
            sql: sql)
        error.position = get(positionCode).flatMap { Int($0) }
        error.internalPosition = get(internalPositionCode).flatMap { Int($0) }
        error.internalQuery = get(internalQueryCode)
        error.context = get(contextCode)
        error.schemaName = get(schemaCode)
        error.tableName = get(tableCode)
        error.columnName = get(columnCode)
        error.constraintName = get(constraintCode)
        return error
    }
}
