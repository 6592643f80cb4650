import Foundation

/// Where a project's seed files come from.
public enum SeedSource: Sendable, Equatable {
    /// Every `*.sql` file of a folder, in name order (pgwarden's `seeds/`, or `--seeds DIR`).
    /// A folder that does not exist means no seeds.
    case folder(URL)
    /// These files, in this order (a Supabase project's `[db.seed] sql_paths`, expanded).
    case files([URL])
    /// Seeding is turned off (`[db.seed] enabled = false`).
    case disabled

    /// The seed files in the order they apply (empty when there are none).
    public func files() throws -> [URL] {
        switch self {
        case .folder(let folder):
            return FileManager.default.fileExists(atPath: folder.path) ? try Seeder(folder: folder).files() : []
        case .files(let files): return files
        case .disabled: return []
        }
    }

    /// True when there is something to apply (an existing folder, or at least one file).
    public var isPresent: Bool {
        switch self {
        case .folder(let folder): return FileManager.default.fileExists(atPath: folder.path)
        case .files(let files): return !files.isEmpty
        case .disabled: return false
        }
    }

    /// Applies the seed files in one transaction; nil when there is nothing to apply.
    /// A failing file rolls every seed back and throws `SeedError` naming its line.
    public func apply(on connection: Connection) throws -> [URL]? {
        try Seeds(self).apply(on: connection)
    }

    /// For messages: `seeds` (a folder), `supabase/seed.sql` (one or two files named),
    /// `3 files (first ... last)`, `disabled in config.toml`.
    public var shown: String {
        switch self {
        case .folder(let folder): return folder.relativePath
        case .files(let files):
            if files.isEmpty { return "none" }
            if files.count > 2 {
                return "\(files.count) files (\(files[0].relativePath) ... \(files[files.count - 1].relativePath))"
            }
            return files.map(\.relativePath).joined(separator: ", ")
        case .disabled: return "disabled in config.toml"
        }
    }
}
