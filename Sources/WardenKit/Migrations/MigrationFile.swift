import Crypto

/// How a section runs; set by options on its marker line.
public struct MigrationOptions: Equatable, Sendable {
    /// False for `transaction:false`: the section runs outside a transaction, one
    /// statement at a time (for CREATE INDEX CONCURRENTLY and the like).
    public var transaction = true

    public init(transaction: Bool = true) {
        self.transaction = transaction
    }
}

/// One section of a migration file (the up or the down part).
public struct MigrationSection: Sendable {
    /// The section's SQL: from the line after its marker to the next marker or the
    /// end of the file (the whole file when it has no markers). Line endings are `\n`.
    /// A substring of the file's text: a section costs no copy of it.
    public let sql: Substring
    /// The 1-based file line of the section's first line.
    public let startLine: Int
    /// The Unicode scalar offset in the file text where `sql` begins.
    public let startOffset: Int
    /// The file line of the marker, nil for a file without markers.
    public let markerLine: Int?
    public internal(set) var options: MigrationOptions
    /// The file the section is in, as shown to the user (a golang-migrate down
    /// section lives in its own `.down.sql` file).
    public let path: String
    /// The section's statements (offsets relative to `sql`), dropped ones included.
    package let statements: [SQLStatement]
    /// Indices into `statements` of the top-level BEGIN/COMMIT pairs of a file without
    /// markers, which pgwarden drops: the body runs in pgwarden's own transaction.
    public internal(set) var droppedStatements: [Int] = []
    /// A file without markers whose own COMMIT must be honoured (its BEGIN/COMMIT pair
    /// adds an enum value a later statement uses): the file lines of that BEGIN and
    /// COMMIT. Such a section runs as `transaction:false` does, as the Supabase CLI runs it.
    public internal(set) var honouredCommit: (begin: Int, commit: Int)?
    /// A file without markers with a COMMIT with no BEGIN open after an enum value a later
    /// statement uses, or a statement that cannot run in a transaction block, which the
    /// Supabase CLI applies (`ImplicitTransactionControl`): the file line of the first such
    /// statement, what it is and how the CLI runs it. Such a section runs as
    /// `transaction:false` does.
    public internal(set) var implicitTransactionControl: (line: Int, what: String, how: String)?

    public init(sql: String, startLine: Int, startOffset: Int, markerLine: Int?, options: MigrationOptions,
                path: String = "")
    {
        self.init(sql: sql[...], startLine: startLine, startOffset: startOffset, markerLine: markerLine,
                  options: options, path: path)
    }

    public init(sql: Substring, startLine: Int, startOffset: Int, markerLine: Int?, options: MigrationOptions,
                path: String = "")
    {
        self.sql = sql
        self.startLine = startLine
        self.startOffset = startOffset
        self.markerLine = markerLine
        self.options = options
        self.path = path
        self.statements = StatementSplitter.split(sql)
    }

    /// True when the section holds no statement (only blank lines and comments).
    public var isEmpty: Bool { statements.isEmpty }

    /// The statements that run (all but the dropped BEGIN/COMMIT pairs).
    public var runnableStatementIndices: [Int] {
        let dropped = Set(droppedStatements)
        return statements.indices.filter { !dropped.contains($0) }
    }
}

/// A parsed migration file: `<version>_<name>.sql` with its sections and checksum.
public struct MigrationFile: Sendable {
    public let version: MigrationVersion
    /// The part of the file name after the version and `_`, without `.sql`.
    public let name: String
    /// The file's path as shown to the user (the folder as given, then the file name).
    public let path: String
    public let up: MigrationSection
    /// The down section; nil for an up-only file (no markers at all).
    public let down: MigrationSection?
    /// SHA-256 (lowercase hex) of the up section with normalized line endings.
    public let checksum: String

    /// The file's text is not kept (a large migration would be held twice): each
    /// section keeps its own part, and errors are located within it.
    public init(version: MigrationVersion, name: String, path: String,
                up: MigrationSection, down: MigrationSection?)
    {
        self.version = version
        self.name = name
        self.path = path
        self.up = up
        self.down = down
        self.checksum = MigrationChecksum.of(up.sql)
    }

    /// The file name, e.g. `20261121000100_create_lookup_tables.sql`.
    public var fileName: String { "\(version.text)_\(name).sql" }

    /// Why this migration cannot be rolled back, or nil when it can.
    public var irreversibility: String? {
        guard let down else { return "it is up-only (no `-- migrate:down` section)" }
        return down.isEmpty ? "its `-- migrate:down` section is empty" : nil
    }

    /// The section for a direction (nil: no down section).
    public func section(_ direction: MigrationDirection) -> MigrationSection? {
        direction == .up ? up : down
    }
}

/// Which way a migration runs.
public enum MigrationDirection: String, Sendable {
    case up, down
}

/// The checksum stored in the history: SHA-256 of the up section, line endings
/// normalized first, so a checkout with CRLF line endings is not "modified".
package enum MigrationChecksum {
    /// Lowercase hex SHA-256 of `text` after CRLF and CR become LF.
    public static func of(_ text: String) -> String { of(text[...]) }

    /// Lowercase hex SHA-256 of `text` after CRLF and CR become LF (hashed in place).
    public static func of(_ text: Substring) -> String {
        var contiguous = text
        var hasher = SHA256()
        if contiguous.withUTF8({ UTF8Bytes.contains($0, 0x0D) }) {
            var normalized = LineEndings.normalize(String(text))
            normalized.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        } else {
            contiguous.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return hasher.finalize().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// Line-ending normalization.
package enum LineEndings {
    /// `\r\n` and lone `\r` become `\n`.
    public static func normalize(_ text: String) -> String {
        guard UTF8Bytes.contains(text, 0x0D) else { return text }
        var result = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                result.append("\n")
                previousWasCR = true
            } else {
                if !(scalar == "\n" && previousWasCR) { result.append(scalar) }
                previousWasCR = false
            }
        }
        return String(result)
    }
}
