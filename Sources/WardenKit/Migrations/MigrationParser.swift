/// Splits a migration file's text into its up and down sections.
///
/// Sections are marked by comment lines `-- migrate:up` and `-- migrate:down`
/// (dbmate's markers), each at most once, up first. A marker may carry options
/// (`transaction:false`). Before `-- migrate:up` only comments and blank lines may
/// appear. A file without any marker is up-only: the whole file is its up section
/// (its top-level BEGIN/COMMIT pairs are dropped: see `TransactionControlCheck`).
/// A comment line that reads like a marker but is not exactly one is an error.
package enum MigrationParser {
    /// The sections of a file.
    package struct Sections: Sendable {
        package let up: MigrationSection
        /// nil for a file without markers (up-only).
        package let down: MigrationSection?
    }

    /// A marker line found in the text.
    struct Marker {
        enum Kind: String { case up, down }
        let kind: Kind
        let line: Int
        let options: MigrationOptions
    }

    /// Parses `text` (line endings already normalized); `file` names the file in errors.
    package static func parse(_ text: String, file: String) throws -> Sections {
        let source = SourceText(text)
        let (up, down) = try findMarkers(source, file: file)
        guard let up else {
            // No markers: the Supabase CLI's up-only layout, where an empty or
            // comment-only file (a placeholder) is an empty migration, applied and recorded.
            return Sections(
                up: try wholeFile(text, source: source, file: file, direction: .up, emptyAllowed: true), down: nil)
        }
        try checkPreamble(source, before: up, file: file)
        let upEnd = down.map { source.offset(ofLine: $0.line) } ?? source.count
        var upSection = section(source, after: up, end: upEnd, file: file)
        guard !upSection.isEmpty else { throw MigrationInputError.emptyUpSection(file: file, line: up.line) }
        var downSection = down.map { section(source, after: $0, end: source.count, file: file) }
        upSection.droppedStatements = try TransactionControlCheck.droppedStatements(upSection, source: source, direction: .up)
        try SettingCheck.check(upSection, source: source, direction: .up)
        if let section = downSection {
            downSection?.droppedStatements = try TransactionControlCheck.droppedStatements(
                section, source: source, direction: .down)
            try SettingCheck.check(section, source: source, direction: .down)
        }
        return Sections(up: upSection, down: downSection)
    }

    /// A file without markers as one section (a golang-migrate `.up.sql` or
    /// `.down.sql` file, or a Supabase/dbmate-less up-only file); markers are refused
    /// in golang-migrate files (`markersForbidden`).
    package static func wholeFile(_ text: String, source: SourceText? = nil, file: String, direction: MigrationDirection,
                                 markersForbidden: Bool = false, emptyAllowed: Bool = false) throws -> MigrationSection
    {
        let source = source ?? SourceText(text)
        if markersForbidden, let marker = firstMarkerLine(source) {
            throw MigrationInputError.markerInPairFile(file: file, line: marker)
        }
        var whole = MigrationSection(
            sql: text, startLine: 1, startOffset: 0, markerLine: nil, options: MigrationOptions(), path: file)
        guard !whole.isEmpty else {
            if direction == .down || emptyAllowed { return whole }
            throw MigrationInputError.emptyUpSection(file: file, line: 1)
        }
        switch ImplicitTransactionControl.handling(whole, source: source) {
        case .dropCommits(let indices)?:
            whole.droppedStatements = indices
        case .runAsWritten(let line, let what, let how)?:
            whole.options.transaction = false
            whole.implicitTransactionControl = (line, what, how)
        case nil:
            whole.droppedStatements = try TransactionControlCheck.droppedStatements(whole, source: source, direction: direction)
            if let pair = EnumValueCommit.pairToHonour(whole, source: source) {
                whole.options.transaction = false
                whole.droppedStatements = []
                whole.honouredCommit = pair
            }
        }
        try SettingCheck.check(whole, source: source, direction: direction)
        return whole
    }

    static func findMarkers(_ source: SourceText, file: String) throws -> (up: Marker?, down: Marker?) {
        var up: Marker?
        var down: Marker?
        for number in 1...max(1, source.lineCount) where source.mayStartWithDash(line: number) {
            let text = source.line(number)
            guard let marker = try marker(in: text, line: number, file: file) else {
                if MarkerSpelling.looksLikeMarker(text) {
                    throw MigrationInputError.markerLookAlike(file: file, line: number, text: text)
                }
                continue
            }
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

    /// The line of the first marker or marker look-alike, for files that take none.
    static func firstMarkerLine(_ source: SourceText) -> Int? {
        (1...max(1, source.lineCount)).first {
            source.mayStartWithDash(line: $0) && MarkerSpelling.looksLikeMarker(source.line($0))
        }
    }

    /// Recognizes `-- migrate:<kind> [options]` (leading whitespace allowed).
    static func marker(in line: String, line number: Int, file: String) throws -> Marker? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("--") else { return nil }
        let afterDashes = trimmed.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        guard afterDashes.hasPrefix("migrate:"),
            let next = afterDashes.dropFirst("migrate:".count).first, next != " ", next != "\t"
        else { return nil }
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
        if let first = StatementSplitter.split(source.text(0..<preambleEnd)).first {
            let line = source.location(ofOffset: first.range.lowerBound).line
            throw MigrationInputError.statementsBeforeUpMarker(file: file, line: line)
        }
    }

    /// The section from the line after `marker` to `end`.
    static func section(_ source: SourceText, after marker: Marker, end: Int, file: String)
        -> MigrationSection
    {
        let start = min(source.offsetAfter(line: marker.line), end)
        return MigrationSection(
            sql: source.substring(start..<end), startLine: marker.line + 1, startOffset: start,
            markerLine: marker.line, options: marker.options, path: file)
    }
}

extension SourceText {
    /// False when a line's first character after spaces and tabs is ASCII and not
    /// `-`: such a line can be neither a marker nor a marker look-alike (a quick
    /// test, so a large file's lines are not each copied and folded).
    func mayStartWithDash(line: Int) -> Bool {
        guard line >= 1, line <= lineByteStarts.count else { return false }
        let utf8 = string.utf8
        var index = utf8.index(utf8.startIndex, offsetBy: lineByteStarts[line - 1])
        while index < utf8.endIndex, utf8[index] == 0x20 || utf8[index] == 0x09 { utf8.formIndex(after: &index) }
        guard index < utf8.endIndex else { return false }
        return utf8[index] == UInt8(ascii: "-") || utf8[index] >= 0x80
    }

    /// The offset where the line after `line` begins, or the end of the text.
    func offsetAfter(line: Int) -> Int {
        line < lineStarts.count ? lineStarts[line] : count
    }
}
