import WardenPostgres

/// Runs a SQL file the way psql runs a script: its statements as written (each one
/// extended-protocol message, pipelined: a text holding two statements is refused by
/// the server), and each
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
                case .statements(let items): try connection.execute(unsafeStatements: items.map(\.text))
                case .copy(let item, let data): try connection.copyIn(unsafeStatement: item.text, data: data)
                case .authorBegin(let item), .authorCommit(let item): try connection.execute(unsafeStatement: item.text)
                }
            } catch var error as PGError {
                let offset = batch.failingItem(error.completedStatements)?.fileOffset ?? 0
                error.position = error.position.map { $0 + offset }
                throw error
            }
        }
    }
}
