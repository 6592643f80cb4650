/// How far `down` goes.
public enum DownTarget: Equatable, Sendable {
    /// The newest `n` applied migrations.
    case steps(Int)
    /// Every applied migration newer than this version (it stays applied).
    case to(MigrationVersion)
    /// Every applied migration.
    case all
}

/// One migration to roll back: its file (for the down section) and its history row.
package struct DownStep: Sendable {
    package let file: MigrationFile
    package let record: MigrationRecord
}

/// Decides what `up`, `down` and `redo` would do, from the files and the history
/// alone, and refuses (throwing, before anything runs) when they must not run.
package enum MigrationPlanner {
    /// Pending migrations in the folder's order (`files` come in it), up to and including `target`.
    ///
    /// Refuses while a migration is marked failed, and while an applied migration was
    /// modified or is missing (unless `allowDrift`). `target` must be a file's version.
    package static func up(files: [MigrationFile], records: [MigrationRecord], to target: MigrationVersion?,
                          allowDrift: Bool, folder: String) throws -> [MigrationFile]
    {
        let entries = MigrationStatusEntry.entries(files: files, records: records)
        try checkFailures(entries)
        try checkDrift(entries, allowDrift: allowDrift)
        if let target, !files.contains(where: { $0.version == target }) {
            throw MigrationInputError.unknownVersion(version: target.text, folder: folder)
        }
        let applied = Set(records.compactMap(\.parsedVersion))
        let sequence = MigrationSequence(files)
        return files.filter { file in
            !applied.contains(file.version) && target.map { sequence.precedesOrIs(file.version, $0) } != false
        }
    }

    /// Applied migrations to roll back, newest first (last in the folder's order first).
    ///
    /// Refuses, changing nothing, while a migration is marked failed, or when any
    /// migration in range has no file or no down section.
    package static func down(files: [MigrationFile], records: [MigrationRecord], target: DownTarget,
                            folder: String) throws -> [DownStep]
    {
        try checkFailures(MigrationStatusEntry.entries(files: files, records: records))
        let sequence = MigrationSequence(files)
        let applied = records.compactMap { record in
            record.state == .applied ? record.parsedVersion.map { ($0, record) } : nil
        }.sorted { sequence.precedes($1.0, $0.0) }.map(\.1)
        let selected: [MigrationRecord]
        switch target {
        case .steps(let count):
            selected = Array(applied.prefix(max(0, count)))
        case .all:
            selected = applied
        case .to(let version):
            let known = files.contains { $0.version == version } || records.contains { $0.parsedVersion == version }
            guard known else { throw MigrationInputError.unknownVersion(version: version.text, folder: folder) }
            selected = applied.filter { record in record.parsedVersion.map { sequence.precedes(version, $0) } ?? false }
        }
        // One lookup table, not a search of every file per record: `down --all` over
        // 3,000 migrations spent seconds copying files in that quadratic search.
        let filesByVersion = Dictionary(files.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        return try selected.map { record in try downStep(record, file: record.parsedVersion.flatMap { filesByVersion[$0] }) }
    }

    /// What `redo` does: roll back the newest applied migration and apply it again
    /// from its current file. Drift elsewhere refuses it unless `allowDrift`.
    package static func redo(files: [MigrationFile], records: [MigrationRecord], allowDrift: Bool,
                            folder: String) throws -> DownStep?
    {
        guard let step = try down(files: files, records: records, target: .steps(1), folder: folder).first else {
            return nil
        }
        let others = MigrationStatusEntry.entries(files: files, records: records).filter {
            MigrationVersion($0.version) != step.file.version
        }
        try checkDrift(others, allowDrift: allowDrift)
        return step
    }

    static func downStep(_ record: MigrationRecord, file: MigrationFile?) throws -> DownStep {
        guard let file else {
            throw MigrationRefusal.missingFile(version: record.version, name: record.name)
        }
        if let reason = file.irreversibility {
            throw MigrationRefusal.irreversible(file: file.path, reason: reason)
        }
        return DownStep(file: file, record: record)
    }

    static func checkFailures(_ entries: [MigrationStatusEntry]) throws {
        let failed = entries.filter { $0.state == .failed }
        if !failed.isEmpty { throw MigrationRefusal.unresolvedFailures(failed) }
    }

    static func checkDrift(_ entries: [MigrationStatusEntry], allowDrift: Bool) throws {
        let drifted = entries.filter { $0.state == .modified || $0.state == .missing }
        if !drifted.isEmpty && !allowDrift { throw MigrationRefusal.drift(drifted) }
    }
}
