import Foundation

/// Where `pgwarden dev` keeps its bootstrapped cluster templates: stopped data
/// directories made by `initdb` and the twin's bootstrap, one per key
/// (`ClusterTemplateKey`: the PostgreSQL version and the twin version), so a run copies
/// one instead of running `initdb` and the bootstrap. docs/dev-cache.md.
///
/// - The folder is the user's own (created with mode 0700; one owned by another user
///   is never used), so nothing is shared between OS users.
/// - An entry is built in a staging folder and renamed into place whole, so a reader
///   sees a complete entry or none; two runs that build at once both succeed (the
///   second rename loses and its staging folder is removed).
/// - Every entry carries a manifest (the key, every file and its size); a reader
///   checks its own copy against it, so a truncated or partial entry is never used:
///   it is removed and rebuilt.
public struct ClusterTemplateCache: Sendable {
    /// The cache folder (`…/pgwarden`).
    public let directory: URL

    /// The cache in `directory` (created when first written).
    public init(directory: URL) {
        self.directory = directory
    }

    /// The user's cache, from the environment: nil when `PGWARDEN_NO_CACHE` is set
    /// (to anything but empty or `0`); else `PGWARDEN_CACHE_DIR` when set, else
    /// `$XDG_CACHE_HOME/pgwarden`, else `~/.cache/pgwarden`.
    public static func user(environment: [String: String] = ProcessInfo.processInfo.environment) -> ClusterTemplateCache? {
        if let off = environment["PGWARDEN_NO_CACHE"], !off.isEmpty, off != "0" { return nil }
        if let explicit = environment["PGWARDEN_CACHE_DIR"], !explicit.isEmpty {
            return ClusterTemplateCache(directory: URL(fileURLWithPath: explicit))
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return ClusterTemplateCache(directory: URL(fileURLWithPath: xdg).appendingPathComponent("pgwarden"))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return ClusterTemplateCache(directory: URL(fileURLWithPath: home).appendingPathComponent(".cache/pgwarden"))
    }

    /// The folder of templates.
    var templates: URL { directory.appendingPathComponent("templates") }

    /// The entry folder for `key` (holding `data/` and `manifest`).
    public func entry(for key: ClusterTemplateKey) -> URL {
        templates.appendingPathComponent(key.name)
    }

    /// Copies the entry for `key` into `target` (a new `data` folder) and checks the
    /// copy against the entry's manifest. Returns nil when there is no entry; throws
    /// `TemplateCacheProblem` when the entry cannot be used (then `target` is removed).
    func copy(_ key: ClusterTemplateKey, to target: URL) throws -> URL? {
        let entry = entry(for: key)
        guard FileManager.default.fileExists(atPath: entry.path) else { return nil }
        let manifestText = try? String(contentsOf: entry.appendingPathComponent("manifest"), encoding: .utf8)
        guard let manifestText, let manifest = TemplateManifest(parsing: manifestText) else {
            throw TemplateCacheProblem("its manifest is missing or unreadable")
        }
        guard manifest.key == key.name else { throw TemplateCacheProblem("its manifest names another key") }
        do {
            let sizes = try DataDirectoryCopy.copy(entry.appendingPathComponent("data"), to: target)
            if let difference = TemplateManifest(key: key.name, sizes: sizes).difference(from: manifest) {
                throw TemplateCacheProblem(difference)
            }
        } catch {
            try? FileManager.default.removeItem(at: target)
            throw error as? TemplateCacheProblem ?? TemplateCacheProblem("copying it failed: \(error)")
        }
        return entry
    }

    /// Moves an unusable entry out of the way (renamed, then removed), so the next
    /// store can put a good one in its place.
    func discard(_ key: ClusterTemplateKey) {
        let trash = directory.appendingPathComponent(".trash-\(UUID().uuidString)")
        if rename(entry(for: key).path, trash.path) == 0 { try? FileManager.default.removeItem(at: trash) }
    }

    /// Stores a copy of the stopped data directory `data` as the entry for `key`:
    /// copied into a staging folder with its manifest, then renamed into place. When
    /// another run stored the key first, its entry is kept. Entries of other keys and
    /// staging folders abandoned by killed runs are removed (a killed pgwarden's
    /// staging folder is never read, and removed later).
    func store(_ data: URL, as key: ClusterTemplateKey) throws -> URL {
        let manager = FileManager.default
        try prepareDirectory()
        try manager.createDirectory(at: templates, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let staging = directory.appendingPathComponent(".staging-\(UUID().uuidString)")
        try manager.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? manager.removeItem(at: staging) }
        let sizes = try DataDirectoryCopy.copy(data, to: staging.appendingPathComponent("data"))
        let manifest = TemplateManifest(key: key.name, sizes: sizes)
        try manifest.text.write(to: staging.appendingPathComponent("manifest"), atomically: false, encoding: .utf8)
        let target = entry(for: key)
        // rename(2) of a folder onto an existing, non-empty one fails: the first store wins.
        _ = rename(staging.path, target.path)
        removeLeftovers(keeping: key)
        return target
    }

    /// Throws when the cache folder exists and is not the caller's own folder.
    func checkUsable() throws {
        var status = stat()
        if lstat(directory.path, &status) != 0 && errno == ENOENT { return }
        try checkOwnership()
    }

    /// Creates the cache folder (mode 0700) and makes sure it is the caller's own.
    private func prepareDirectory() throws {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try checkOwnership()
    }

    /// Refuses a cache folder owned by another OS user; closes one open to others.
    private func checkOwnership() throws {
        var status = stat()
        guard lstat(directory.path, &status) == 0 else { throw TemplateCacheProblem("\(directory.path) cannot be read") }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw TemplateCacheProblem("\(directory.path) is not a folder") }
        guard status.st_uid == geteuid() else {
            throw TemplateCacheProblem("\(directory.path) belongs to another user; it is never shared")
        }
        if status.st_mode & 0o077 != 0 { chmod(directory.path, 0o700) }
    }

    /// Removes other keys' entries and abandoned folders.
    private func removeLeftovers(keeping key: ClusterTemplateKey) {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: templates.path)) ?? [] where name != key.name {
            discard(ClusterTemplateKey(name: name))
        }
        removeAbandoned()
    }

    /// Removes trash, and staging folders older than ten minutes (left by a run killed
    /// while storing; a younger one may be another run's, still being written).
    func removeAbandoned() {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix(".staging-") || name.hasPrefix(".trash-") {
            let path = directory.appendingPathComponent(name)
            let modified = (try? manager.attributesOfItem(atPath: path.path))?[.modificationDate] as? Date ?? .distantPast
            if name.hasPrefix(".trash-") || modified < Date().addingTimeInterval(-600) { try? manager.removeItem(at: path) }
        }
    }
}

/// Why a cache entry or the cache folder could not be used.
struct TemplateCacheProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
