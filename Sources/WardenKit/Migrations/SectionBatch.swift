/// A piece of a section sent to the server in one go: statements pipelined (one
/// extended-protocol message each, so the server itself refuses a text that holds two
/// statements), one `COPY ... FROM STDIN` with its data rows, or the place of an
/// author's dropped BEGIN or COMMIT.
package struct SectionBatch: Sendable {
    /// One statement as sent, and where it is.
    package struct Item: Sendable {
        /// The statement's text, exactly one statement.
        package let text: String
        /// The file offset where its text begins (a server error's position counts from here).
        package let fileOffset: Int
        /// Its index in the section's `statements`.
        package let index: Int
    }

    package enum Payload: Sendable {
        /// Statements pipelined: sent together, answered in one round trip.
        case statements([Item])
        /// One COPY statement and the rows it reads from standard input.
        case copy(Item, data: String)
        /// The author's top-level BEGIN (dropped: the section runs in pgwarden's transaction).
        case authorBegin(Item)
        /// The author's COMMIT that closes it: what a COMMIT would end (SET LOCAL, a local
        /// role) ends here too.
        case authorCommit(Item)
        /// A `CREATE EVENT TRIGGER`, or a `DO` block doing nothing else (`EventTriggerBlock`),
        /// run as Supabase lets postgres run it (`EventTriggerLift`).
        case eventTriggerCreation(Item)
    }

    package let payload: Payload

    /// The most statements, and SQL characters, one pipelined batch carries: a large
    /// migration is sent in pieces, so neither pgwarden nor libpq holds a second copy
    /// of all of it. Every piece runs in the same transaction.
    static let statementLimit = 2_000
    static let characterLimit = 4 * 1024 * 1024

    /// The statements of the batch, in order.
    package var items: [Item] {
        switch payload {
        case .statements(let items): return items
        case .copy(let item, _), .authorBegin(let item), .authorCommit(let item), .eventTriggerCreation(let item): return [item]
        }
    }

    /// The batches of a section, in order.
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
        var pending: [Item] = []
        var pendingCharacters = 0
        func flush() throws {
            guard !pending.isEmpty else { return }
            let items = pending
            pending = []
            pendingCharacters = 0
            try body(SectionBatch(payload: .statements(items)))
        }
        for (index, statement) in section.statements.enumerated() {
            let item = Item(text: statement.text, fileOffset: section.startOffset + statement.range.lowerBound, index: index)
            if dropped.contains(index) {
                try flush()
                try body(SectionBatch(payload: statement.kind == .begin ? .authorBegin(item) : .authorCommit(item)))
            } else if let data = statement.copyData {
                try flush()
                try body(SectionBatch(payload: .copy(item, data: source.text(data))))
            } else if statement.kind == .eventTriggerCreation || EventTriggerBlock.isOne(item.text) {
                try flush()
                try body(SectionBatch(payload: .eventTriggerCreation(item)))
            } else {
                pending.append(item)
                pendingCharacters += statement.range.count
                if pending.count >= statementLimit || pendingCharacters >= characterLimit { try flush() }
            }
        }
        try flush()
    }

    /// One statement on its own (a `transaction:false` section runs this way).
    static func single(_ statement: SQLStatement, index: Int, section: MigrationSection) -> SectionBatch {
        let item = Item(text: statement.text, fileOffset: section.startOffset + statement.range.lowerBound, index: index)
        if let data = statement.copyData {
            return SectionBatch(payload: .copy(item, data: SourceText(section.sql).text(data)))
        }
        return SectionBatch(payload: .statements([item]))
    }

    /// The statement an error was raised by: the one after those the batch completed.
    package func failingItem(_ completedStatements: Int?) -> Item? {
        let items = items
        guard let completed = completedStatements, items.indices.contains(completed) else { return items.first }
        return items[completed]
    }
}
