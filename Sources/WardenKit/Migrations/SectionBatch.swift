/// A piece of a section sent to the server in one go: SQL text (many statements in
/// one simple query), or one `COPY ... FROM STDIN` with its data rows.
///
/// A section without COPY data and without dropped statements is one batch: its text
/// as written, so the server's error positions map straight onto the file.
package struct SectionBatch: Sendable {
    package enum Payload: Sendable {
        /// Statements sent as one simple query. Dropped BEGIN/COMMIT statements are
        /// blanked out (spaces, newlines kept), so offsets still match the file.
        case sql(String)
        /// One COPY statement and the rows it reads from standard input.
        case copy(statement: String, data: String)
    }

    package let payload: Payload
    /// The file offset where the batch's text begins.
    package let fileOffset: Int
    /// Indices into the section's `statements` of what the batch runs, in order.
    package let statementIndices: [Int]

    /// The most SQL text one batch carries (at a statement boundary): a large
    /// migration is sent in pieces, so neither pgwarden nor libpq holds a second copy
    /// of all of it. Every piece runs in the same transaction.
    static let batchLimit = 4 * 1024 * 1024

    /// The batches of a section, in order: the text between COPY blocks as written
    /// (dropped statements blanked; cut into pieces of at most `batchLimit`
    /// characters at statement boundaries), and each COPY with its data.
    package static func batches(of section: MigrationSection) -> [SectionBatch] {
        var batches: [SectionBatch] = []
        forEachBatch(of: section) { batches.append($0) }
        return batches
    }

    /// Makes the batches one at a time and hands each to `body` (so only one batch's
    /// text exists at a time).
    package static func forEachBatch(of section: MigrationSection, _ body: (SectionBatch) throws -> Void) rethrows {
        let source = SourceText(section.sql)
        let dropped = Set(section.droppedStatements)
        var cursor = 0
        var pending: [Int] = []
        func flush(upTo end: Int) throws {
            defer {
                pending = []
                cursor = max(cursor, end)
            }
            guard pending.contains(where: { !dropped.contains($0) }) else { return }
            var text = ""
            var position = cursor
            for index in pending where dropped.contains(index) {
                let range = section.statements[index].range
                text += source.text(position..<range.lowerBound)
                text += String(String.UnicodeScalarView(source.text(range).unicodeScalars.map { $0 == "\n" ? "\n" : " " }))
                position = range.upperBound
            }
            text += source.text(position..<end)
            try body(SectionBatch(
                payload: .sql(text), fileOffset: section.startOffset + cursor,
                statementIndices: pending.filter { !dropped.contains($0) }))
        }
        for (index, statement) in section.statements.enumerated() {
            guard let data = statement.copyData else {
                pending.append(index)
                if statement.range.upperBound - cursor >= batchLimit { try flush(upTo: statement.range.upperBound) }
                continue
            }
            try flush(upTo: statement.range.lowerBound)
            try body(SectionBatch(
                payload: .copy(statement: statement.text, data: source.text(data)),
                fileOffset: section.startOffset + statement.range.lowerBound, statementIndices: [index]))
            cursor = endOfCopyBlock(source, data: data)
        }
        try flush(upTo: source.count)
    }

    /// Just after the `\.` line that ends a COPY block (or the data's end).
    static func endOfCopyBlock(_ source: SourceText, data: Range<Int>) -> Int {
        guard source.text(data.upperBound..<data.upperBound + 2) == "\\." else { return data.upperBound }
        return min(source.count, data.upperBound + 3)
    }
}

extension SectionBatch {
    /// One statement on its own (a `transaction:false` section runs this way).
    static func single(_ statement: SQLStatement, index: Int, section: MigrationSection) -> SectionBatch {
        let offset = section.startOffset + statement.range.lowerBound
        if let data = statement.copyData {
            return SectionBatch(
                payload: .copy(statement: statement.text, data: SourceText(section.sql).text(data)), fileOffset: offset,
                statementIndices: [index])
        }
        return SectionBatch(payload: .sql(statement.text), fileOffset: offset, statementIndices: [index])
    }
}
