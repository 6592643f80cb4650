/// A piece of a section sent to the server in one go: SQL text (many statements in
/// one simple query), or one `COPY ... FROM STDIN` with its data rows.
///
/// A section without COPY data and without dropped statements is one batch: its text
/// as written, so the server's error positions map straight onto the file.
public struct SectionBatch: Sendable {
    public enum Payload: Sendable {
        /// Statements sent as one simple query. Dropped BEGIN/COMMIT statements are
        /// blanked out (spaces, newlines kept), so offsets still match the file.
        case sql(String)
        /// One COPY statement and the rows it reads from standard input.
        case copy(statement: String, data: String)
    }

    public let payload: Payload
    /// The file offset where the batch's text begins.
    public let fileOffset: Int
    /// Indices into the section's `statements` of what the batch runs, in order.
    public let statementIndices: [Int]

    /// The batches of a section, in order: the text between COPY blocks as written
    /// (dropped statements blanked), and each COPY with its data.
    public static func batches(of section: MigrationSection) -> [SectionBatch] {
        let scalars = Array(section.sql.unicodeScalars)
        let dropped = Set(section.droppedStatements)
        var batches: [SectionBatch] = []
        var cursor = 0
        var pending: [Int] = []
        func flush(upTo end: Int) {
            defer { pending = [] }
            guard pending.contains(where: { !dropped.contains($0) }) else { return }
            var text = Array(scalars[cursor..<end])
            for index in pending where dropped.contains(index) {
                for offset in section.statements[index].range where text[offset - cursor] != "\n" {
                    text[offset - cursor] = " "
                }
            }
            batches.append(SectionBatch(
                payload: .sql(SourceText.string(text[...])), fileOffset: section.startOffset + cursor,
                statementIndices: pending.filter { !dropped.contains($0) }))
        }
        for (index, statement) in section.statements.enumerated() {
            guard let data = statement.copyData else {
                pending.append(index)
                continue
            }
            flush(upTo: statement.range.lowerBound)
            batches.append(SectionBatch(
                payload: .copy(statement: statement.text, data: SourceText.string(scalars[data])),
                fileOffset: section.startOffset + statement.range.lowerBound, statementIndices: [index]))
            cursor = endOfCopyBlock(scalars, data: data)
        }
        flush(upTo: scalars.count)
        return batches
    }

    /// Just after the `\.` line that ends a COPY block (or the data's end).
    static func endOfCopyBlock(_ scalars: [Unicode.Scalar], data: Range<Int>) -> Int {
        var end = data.upperBound
        guard end + 1 < scalars.count, scalars[end] == "\\", scalars[end + 1] == "." else { return end }
        end += 2
        if end < scalars.count, scalars[end] == "\n" { end += 1 }
        return end
    }
}

extension SectionBatch {
    /// One statement on its own (a `transaction:false` section runs this way).
    static func single(_ statement: SQLStatement, index: Int, section: MigrationSection) -> SectionBatch {
        let offset = section.startOffset + statement.range.lowerBound
        if let data = statement.copyData {
            let scalars = Array(section.sql.unicodeScalars[...])
            return SectionBatch(
                payload: .copy(statement: statement.text, data: SourceText.string(scalars[data])), fileOffset: offset,
                statementIndices: [index])
        }
        return SectionBatch(payload: .sql(statement.text), fileOffset: offset, statementIndices: [index])
    }
}
