import WardenPostgres

/// Runs a SQL file the way psql runs a script: its statements as written, and each
/// `COPY ... FROM STDIN` with the data rows that follow it (up to `\.`) streamed
/// through libpq's COPY protocol (pg_dump's plain format; used for seed files).
package enum SQLScript {
    /// Runs `text` on `connection`. A thrown `PGError`'s `position` counts from the
    /// start of `text`, whatever piece of it was sent.
    package static func run(_ text: String, on connection: Connection) throws {
        let whole = MigrationSection(
            sql: text, startLine: 1, startOffset: 0, markerLine: nil, options: MigrationOptions())
        try SectionBatch.forEachBatch(of: whole) { batch in
            do {
                switch batch.payload {
                case .sql(let sql): try connection.execute(sql)
                case .copy(let statement, let data): try connection.copyIn(statement, data: data)
                }
            } catch var error as PGError {
                error.position = error.position.map { $0 + batch.fileOffset }
                throw error
            }
        }
    }
}
