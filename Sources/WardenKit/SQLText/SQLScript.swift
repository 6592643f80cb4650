import WardenPostgres

/// Runs a SQL file the way psql runs a script: its statements as written (each one
/// extended-protocol message, pipelined: a text holding two statements is refused by
/// the server), and each
/// `COPY ... FROM STDIN` with the data rows that follow it (up to `\.`) streamed
/// through libpq's COPY protocol (pg_dump's plain format; used for seed files).
package enum SQLScript {
    /// A statement of the script that failed: the server's error, and where in the
    /// text the statement begins (so an error the server gives no position for, such as
    /// a duplicate object or a unique violation, still has a line).
    package struct Failure: Error {
        /// What the server (or libpq) said; its `position` counts from the start of the text.
        package var underlying: PGError
        /// The offset in the text where the failing statement begins.
        package var statementOffset: Int
        /// The offset to name: the server's position (1-based) when it gave one, else the
        /// statement's start.
        package var offset: Int { underlying.position.map { $0 - 1 } ?? statementOffset }
    }

    /// Runs `text` on `connection`, in its transaction, without the statements at
    /// `dropping` (the indices of the text's top-level BEGIN/COMMIT pairs: what such a
    /// COMMIT would end ends there, see `AuthorTransaction`). Throws a `Failure` when a
    /// statement fails.
    package static func run(_ text: String, dropping droppedStatements: [Int] = [], on connection: Connection) throws {
        var whole = MigrationSection(
            sql: text, startLine: 1, startOffset: 0, markerLine: nil, options: MigrationOptions())
        whole.droppedStatements = droppedStatements
        var authorTransaction = AuthorTransaction(session: ConnectionTransactionSettings(connection))
        try SectionBatch.forEachBatch(of: whole) { batch in
            do {
                switch batch.payload {
                case .statements(let items): try connection.execute(unsafeStatements: items.map(\.text))
                case .copy(let item, let data): try connection.copyIn(unsafeStatement: item.text, data: data)
                case .authorBegin(let item): try authorTransaction.begin(section: whole, at: item.index)
                case .authorCommit: try authorTransaction.commit()
                case .eventTriggerCreation(let item): try EventTriggerLift.execute(item.text, on: connection)
                }
            } catch var error as PGError {
                let offset = batch.failingItem(error.completedStatements)?.fileOffset ?? 0
                error.position = error.position.map { $0 + offset }
                throw Failure(underlying: error, statementOffset: offset)
            }
        }
    }
}
