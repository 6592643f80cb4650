import Foundation

/// Where one migration stands.
public enum MigrationState: String, Sendable, Encodable {
    /// In the history, and its file's up section is what was applied.
    case applied
    /// A file not in the history yet.
    case pending
    /// Applied, but its file's up section changed since.
    case modified
    /// Applied, but its file is gone.
    case missing
    /// Ran without a transaction and did not finish (or is running right now):
    /// needs a look, then `pgwarden resolve`.
    case failed
}

/// One line of `pgwarden status`.
public struct MigrationStatusEntry: Sendable, Encodable {
    public let version: String
    public let name: String
    public let state: MigrationState
    /// ISO 8601, UTC; nil when not applied.
    public let appliedAt: String?
    public let appliedBy: String?
    /// How long its up section took; nil when not applied.
    public let duration: Duration?
    /// The file's path; nil when the file is missing.
    public let file: String?
    /// For a failed migration: what the history says happened.
    public let error: String?
    /// Where the two histories of a Supabase project disagree, or that the Supabase CLI
    /// applied it (nil otherwise).
    public var history: String? = nil

    enum CodingKeys: String, CodingKey {
        case version, name, state, file, error, history
        case appliedAt = "applied_at", appliedBy = "applied_by", durationMs = "duration_ms"
    }

    /// Every key is present; what is unknown is `null`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(name, forKey: .name)
        try container.encode(state, forKey: .state)
        try container.encode(appliedAt, forKey: .appliedAt)
        try container.encode(appliedBy, forKey: .appliedBy)
        try container.encode(duration?.wholeMilliseconds, forKey: .durationMs)
        try container.encode(file, forKey: .file)
        try container.encode(error, forKey: .error)
        try container.encodeIfPresent(history, forKey: .history)
    }

    /// Every migration's state: each file and each history row, in the folder's order
    /// (`files` come in it; a row without a file goes where its version falls).
    package static func entries(files: [MigrationFile], records: [MigrationRecord]) -> [MigrationStatusEntry] {
        let sequence = MigrationSequence(files)
        let filesByVersion = Dictionary(files.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        var entries: [(MigrationVersion?, MigrationStatusEntry)] = []
        var recorded = Set<MigrationVersion>()
        for record in records {
            let version = record.parsedVersion
            if let version { recorded.insert(version) }
            entries.append((version, entry(record: record, file: version.flatMap { filesByVersion[$0] })))
        }
        for file in files where !recorded.contains(file.version) {
            entries.append((file.version, MigrationStatusEntry(
                version: file.version.text, name: file.name, state: .pending, appliedAt: nil, appliedBy: nil,
                duration: nil, file: file.path, error: nil)))
        }
        return entries.sorted { lhs, rhs in
            switch (lhs.0, rhs.0) {
            case let (left?, right?): return sequence.precedes(left, right)
            case (nil, _?): return true
            case (_?, nil): return false
            case (nil, nil): return lhs.1.version < rhs.1.version
            }
        }.map(\.1)
    }

    static func entry(record: MigrationRecord, file: MigrationFile?) -> MigrationStatusEntry {
        let state: MigrationState
        if record.state == .failed {
            state = .failed
        } else if record.origin == .supabaseCLI {
            state = file == nil ? .missing : .applied  // no checksum to compare until pgwarden applies it
        } else if let file {
            state = file.checksum == record.checksum ? .applied : .modified
        } else {
            state = .missing
        }
        return MigrationStatusEntry(
            version: record.version, name: file?.name ?? record.name, state: state, appliedAt: record.appliedAt,
            appliedBy: record.appliedBy, duration: .milliseconds(record.durationMs), file: file?.path, error: record.error,
            history: historyNote(record))
    }

    static func historyNote(_ record: MigrationRecord) -> String? {
        switch record.origin {
        case .supabaseCLI:
            return "applied by the Supabase CLI (in supabase_migrations.schema_migrations only); no checksum yet"
        case .pgwarden(inSupabaseHistory: false):
            return "applied by pgwarden but not in supabase_migrations.schema_migrations: `supabase migration list` "
                + "does not show it"
        case .pgwarden: return nil
        }
    }
}

/// The result of `pgwarden status`: the entries, a summary, and what the exit status says.
public struct MigrationStatusReport: Sendable {
    /// What `status` exits with: 0 up to date, 2 pending, 3 drift.
    public enum Verdict: Sendable {
        case upToDate, pending, drift
    }

    public let entries: [MigrationStatusEntry]
    /// `.sql` files skipped because their names are not migrations' (paths as shown).
    public let skipped: [String]

    /// Lines about order: where the folder's order differs from numeric order, and
    /// pending migrations that come before applied ones (`MigrationOrderNotes`).
    public var orderNotes: [String]

    public init(entries: [MigrationStatusEntry], skipped: [String] = [], orderNotes: [String] = []) {
        self.entries = entries
        self.skipped = skipped
        self.orderNotes = orderNotes
    }

    /// Drift (modified, missing, failed) wins over pending.
    public var outcome: Verdict {
        if entries.contains(where: { [.modified, .missing, .failed].contains($0.state) }) { return .drift }
        return entries.contains { $0.state == .pending } ? .pending : .upToDate
    }

    /// How many entries are in each state.
    public func count(_ state: MigrationState) -> Int {
        entries.filter { $0.state == state }.count
    }

    /// One summary line, e.g. `14 migrations: 12 applied, 2 pending`.
    public var summary: String {
        let states: [MigrationState] = [.applied, .pending, .modified, .missing, .failed]
        let parts = states.compactMap { state in count(state) > 0 ? "\(count(state)) \(state.rawValue)" : nil }
        let noun = entries.count == 1 ? "migration" : "migrations"
        return "\(entries.count) \(noun)" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }

    /// An aligned table, one migration per line, then the summary. `advice` adds a
    /// caller's own words to an entry's note (the CLI names the command to run next).
    public func text(advice: (MigrationStatusEntry) -> String? = { _ in nil }) -> String {
        let header = ["VERSION", "NAME", "STATE", "APPLIED AT", "DURATION"]
        let rows = entries.map { entry in
            [entry.version, entry.name, entry.state.rawValue, entry.appliedAt ?? "-",
             entry.duration.map(MigrationRun.duration) ?? "-"]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        var lines = [render(header)]
        for (entry, row) in zip(entries, rows) {
            lines.append(render(row))
            let notes = [note(for: entry), entry.history, advice(entry)].compactMap { $0 }
            if !notes.isEmpty { lines.append("    " + notes.joined(separator: "; ")) }
        }
        lines.append(summary)
        lines += orderNotes
        lines += skipped.map { "skipped \($0): not a migration file name (<version>_<name>.sql)" }
        return lines.joined(separator: "\n")
    }

    func note(for entry: MigrationStatusEntry) -> String? {
        switch entry.state {
        case .modified: return "\(entry.file ?? entry.version): the up section changed since it was applied"
        case .missing: return "no file for this applied migration"
        case .failed:
            return (entry.error ?? "did not finish") + "; check the database, then resolve it as applied or as rolled back"
        default: return nil
        }
    }

    /// `{"migrations": [...], "summary": {...}}`, keys sorted, for machines.
    public func json() throws -> String {
        struct Document: Encodable {
            let migrations: [MigrationStatusEntry]
            let summary: [String: Int]
            let skipped: [String]
            let orderNotes: [String]

            enum CodingKeys: String, CodingKey {
                case migrations, summary, skipped, orderNotes = "order_notes"
            }
        }
        let states: [MigrationState] = [.applied, .pending, .modified, .missing, .failed]
        var summary = Dictionary(uniqueKeysWithValues: states.map { ($0.rawValue, count($0)) })
        summary["total"] = entries.count
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Document(migrations: entries, summary: summary, skipped: skipped, orderNotes: orderNotes))
        return String(decoding: data, as: UTF8.self)
    }
}
