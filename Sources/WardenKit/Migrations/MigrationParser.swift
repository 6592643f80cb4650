/// Splits a migration file's text into its up and down sections.
///
/// Sections are marked by comment lines `-- migrate:up` and `-- migrate:down`
/// (dbmate's markers), each at most once, up first. A marker may carry options
/// (`transaction:false`). Before `-- migrate:up` only comments and blank lines may
/// appear. A file without any marker is up-only: the whole file is its up section.
public enum MigrationParser {
    /// The sections of a file.
    public struct Sections: Sendable {
        public let up: MigrationSection
        /// nil for a file without markers (up-only).
        public let down: MigrationSection?
    }

    /// A marker line found in the text.
    struct Marker {
        enum Kind: String { case up, down }
        let kind: Kind
        let line: Int
        let options: MigrationOptions
    }

    /// Parses `text` (line endings already normalized); `file` names the file in errors.
    public static func parse(_ text: String, file: String) throws -> Sections {
        let source = SourceText(text)
        let (up, down) = try findMarkers(source, file: file)
        guard let up else {
            let whole = MigrationSection(sql: text, startLine: 1, startOffset: 0, markerLine: nil, options: MigrationOptions())
            guard !whole.isEmpty else { throw MigrationInputError.emptyUpSection(file: file, line: 1) }
            try checkTransactionControl(whole, source: source, file: file, direction: .up)
            return Sections(up: whole, down: nil)
        }
        try checkPreamble(source, before: up, file: file)
        let upEnd = down.map { source.offset(ofLine: $0.line) } ?? source.scalars.count
        let upSection = section(source, after: up, end: upEnd)
        guard !upSection.isEmpty else { throw MigrationInputError.emptyUpSection(file: file, line: up.line) }
        let downSection = down.map { section(source, after: $0, end: source.scalars.count) }
        try checkTransactionControl(upSection, source: source, file: file, direction: .up)
        if let downSection { try checkTransactionControl(downSection, source: source, file: file, direction: .down) }
        return Sections(up: upSection, down: downSection)
    }

    static func findMarkers(_ source: SourceText, file: String) throws -> (up: Marker?, down: Marker?) {
        var up: Marker?
        var down: Marker?
        for number in 1...max(1, source.lineCount) {
            guard let marker = try marker(in: source.line(number), line: number, file: file) else { continue }
            switch marker.kind {
            case .up:
                if let up {
                    throw MigrationInputError.repeatedMarker(file: file, line: number, marker: "up", firstLine: up.line)
                }
                up = marker
            case .down:
                if let down {
                    throw MigrationInputError.repeatedMarker(file: file, line: number, marker: "down", firstLine: down.line)
                }
                guard up != nil else { throw MigrationInputError.downBeforeUp(file: file, line: number) }
                down = marker
            }
        }
        return (up, down)
    }

    /// Recognizes `-- migrate:<kind> [options]` (leading whitespace allowed).
    static func marker(in line: String, line number: Int, file: String) throws -> Marker? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("--") else { return nil }
        let afterDashes = trimmed.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        guard afterDashes.hasPrefix("migrate:") else { return nil }
        let words = afterDashes.dropFirst("migrate:".count).split(whereSeparator: { $0 == " " || $0 == "\t" })
        let name = words.first.map(String.init) ?? ""
        guard let kind = Marker.Kind(rawValue: name) else {
            throw MigrationInputError.unknownMarker(file: file, line: number, marker: "-- migrate:\(name)")
        }
        let options = try parseOptions(words.dropFirst().map(String.init), line: number, file: file)
        return Marker(kind: kind, line: number, options: options)
    }

    static func parseOptions(_ words: [String], line: Int, file: String) throws -> MigrationOptions {
        var options = MigrationOptions()
        for word in words {
            switch word {
            case "transaction:false": options.transaction = false
            case "transaction:true": options.transaction = true
            default: throw MigrationInputError.unknownMarkerOption(file: file, line: line, option: word)
            }
        }
        return options
    }

    /// Only comments and blank lines may come before `-- migrate:up`.
    static func checkPreamble(_ source: SourceText, before up: Marker, file: String) throws {
        let preambleEnd = source.offset(ofLine: up.line)
        if let first = StatementSplitter.split(Array(source.scalars[0..<preambleEnd])).first {
            let line = source.location(ofOffset: first.range.lowerBound).line
            throw MigrationInputError.statementsBeforeUpMarker(file: file, line: line)
        }
    }

    /// pgwarden runs a section in its own transaction; a BEGIN, COMMIT or ROLLBACK in
    /// it would commit part of the migration without its history row.
    static func checkTransactionControl(_ section: MigrationSection, source: SourceText, file: String,
                                        direction: MigrationDirection) throws
    {
        guard section.options.transaction else { return }
        for statement in section.statements {
            let words = statement.text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "_" }).prefix(2)
            guard let first = words.first, isTransactionControl(first: first, second: words.dropFirst().first) else {
                continue
            }
            let line = source.location(ofOffset: section.startOffset + statement.range.lowerBound).line
            throw MigrationInputError.transactionControl(
                file: file, line: line, statement: first.uppercased(), direction: direction.rawValue)
        }
    }

    static func isTransactionControl(first: Substring, second: Substring?) -> Bool {
        switch first {
        case "begin", "commit", "end", "abort": return true
        case "start", "prepare": return second == "transaction"
        case "rollback": return second != "to"
        default: return false
        }
    }

    /// The section from the line after `marker` to `end`.
    static func section(_ source: SourceText, after marker: Marker, end: Int) -> MigrationSection {
        let start = min(source.offsetAfter(line: marker.line), end)
        return MigrationSection(
            sql: source.text(start..<end), startLine: marker.line + 1, startOffset: start,
            markerLine: marker.line, options: marker.options)
    }
}

extension SourceText {
    /// The offset where the line after `line` begins, or the end of the text.
    func offsetAfter(line: Int) -> Int {
        line < lineStarts.count ? lineStarts[line] : scalars.count
    }
}
