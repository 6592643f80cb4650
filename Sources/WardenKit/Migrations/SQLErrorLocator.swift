import WardenPostgres

/// Finds where in a migration file a server error happened, and prints that place.
///
/// In order of precision: the error's position (a character offset into the text
/// that was sent); a position inside an `internalQuery` found verbatim in the failing
/// statement; the line of a `DO` block's PL/pgSQL body named in the CONTEXT; the
/// failing statement's first line (from the count of completed statements).
struct SQLErrorLocator {
    let file: MigrationFile
    let section: MigrationSection
    /// The file offset where the text sent to the server began.
    let sentOffset: Int
    /// The failing statement (offsets relative to the section), when known.
    let statement: SQLStatement?
    let error: PGError
    let source: SectionSource

    init(file: MigrationFile, section: MigrationSection, sentOffset: Int, statement: SQLStatement?,
         error: PGError)
    {
        self.file = file
        self.section = section
        self.sentOffset = sentOffset
        self.statement = statement
        self.error = error
        self.source = SectionSource(section)
    }

    /// A place in the file: a line, and a column when it is exact.
    struct Place {
        let line: Int
        let column: Int?
    }

    /// The most precise place known, or nil.
    func place() -> Place? {
        if let position = error.position {
            return exact(sentOffset + position - 1)
        }
        guard let statement else { return nil }
        let statementOffset = section.startOffset + statement.range.lowerBound
        if let offset = internalQueryOffset(in: statement) {
            return exact(statementOffset + offset)
        }
        if let line = inlineBlockLine(statement, statementOffset: statementOffset) {
            return Place(line: line, column: nil)
        }
        return Place(line: source.location(ofOffset: statementOffset).line, column: nil)
    }

    func exact(_ offset: Int) -> Place {
        let location = source.location(ofOffset: offset)
        return Place(line: location.line, column: location.column)
    }

    /// The offset (in the statement) of the internal query's error position, when the
    /// internal query appears exactly once in the statement.
    func internalQueryOffset(in statement: SQLStatement) -> Int? {
        guard let query = error.internalQuery, let position = error.internalPosition, !query.isEmpty else { return nil }
        let haystack = Array(statement.text.unicodeScalars)
        let needle = Array(query.unicodeScalars)
        guard needle.count <= haystack.count else { return nil }
        let starts = (0...(haystack.count - needle.count)).filter { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
        guard starts.count == 1, let start = starts.first else { return nil }
        return start + position - 1
    }

    /// For `PL/pgSQL function inline_code_block line N` (a DO block): the file line of
    /// body line N, counted from the line of the block's opening dollar quote.
    func inlineBlockLine(_ statement: SQLStatement, statementOffset: Int) -> Int? {
        guard let context = error.context, let bodyLine = Self.inlineBlockLineNumber(context),
            let bodyOffset = StatementSplitter.firstDollarQuoteBody(in: Array(statement.text.unicodeScalars))
        else { return nil }
        return source.location(ofOffset: statementOffset + bodyOffset).line + bodyLine - 1
    }

    /// N from the first `PL/pgSQL function inline_code_block line N` in a CONTEXT.
    static func inlineBlockLineNumber(_ context: String) -> Int? {
        let marker = "PL/pgSQL function inline_code_block line "
        for line in context.split(whereSeparator: \.isNewline) {
            guard let range = line.range(of: marker) else { continue }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        return nil
    }

    /// `path:line:column: ` (or shorter when less is known).
    func prefix(_ place: Place?) -> String {
        guard let place else { return "\(section.path): " }
        return "\(section.path):\(place.line)" + (place.column.map { ":\($0)" } ?? "") + ": "
    }

    /// The source line of a place, with a caret when the column is known.
    func excerpt(_ place: Place?) -> [String] {
        guard let place else { return [] }
        let text = source.line(place.line)
        var lines = [SourceExcerpt.line(place.line, text)]
        if let column = place.column { lines.append(SourceExcerpt.caret(under: text, column: column)) }
        return lines
    }

    /// `statement 3 of the up section (lines 7-9)`, when the statement is known.
    func statementDescription(direction: MigrationDirection) -> String? {
        guard let statement, let index = section.statements.firstIndex(of: statement) else { return nil }
        let first = source.location(ofOffset: section.startOffset + statement.range.lowerBound).line
        let last = source.location(ofOffset: section.startOffset + max(statement.range.lowerBound, statement.range.upperBound - 1)).line
        let lines = first == last ? "line \(first)" : "lines \(first)-\(last)"
        return "in statement \(index + 1) of the \(direction.rawValue) section (\(lines))"
    }
}

/// A section's text addressed with file offsets and file lines: a section begins at a
/// line start (the line after its marker), so a file location is the section's, moved
/// down by the lines before it. Only the section's text is needed.
struct SectionSource {
    let text: SourceText
    let startOffset: Int
    let startLine: Int

    init(_ section: MigrationSection) {
        text = SourceText(section.sql)
        startOffset = section.startOffset
        startLine = section.startLine
    }

    func location(ofOffset offset: Int) -> SourceLocation {
        var location = text.location(ofOffset: offset - startOffset)
        location.line += startLine - 1
        return location
    }

    func line(_ number: Int) -> String { text.line(number - startLine + 1) }
}
