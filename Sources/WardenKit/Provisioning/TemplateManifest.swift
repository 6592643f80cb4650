import Foundation

/// What a complete cache entry holds: its key, and every regular file of its data
/// directory with its size. A copy that differs (a file missing, added or of another
/// size, as a truncated or half-written entry is) is not used.
struct TemplateManifest: Equatable {
    /// The entry's key (`ClusterTemplateKey.name`).
    var key: String
    /// Relative path to size in bytes, for every regular file.
    var sizes: [String: Int64]

    /// The manifest of files of these sizes (as `DataDirectoryCopy` copied them).
    init(key: String, sizes: [String: Int64]) {
        self.key = key
        self.sizes = sizes
    }

    /// Reads the sizes of every regular file under `folder`.
    init(of folder: URL, key: String) throws {
        self.key = key
        let tree = try DirectoryTree(folder.path)
        sizes = Dictionary(uniqueKeysWithValues: tree.files.map { ($0.relative, $0.size) })
    }

    /// Parses `text` (as written by `text`); nil when it is not a manifest.
    init?(parsing text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.last == "", lines.count >= 3, lines[0] == "pgwarden cluster template" else { return nil }
        lines.removeLast()
        guard lines[1].hasPrefix("key "), lines.last == "end" else { return nil }
        key = String(lines[1].dropFirst(4))
        var sizes: [String: Int64] = [:]
        for line in lines.dropFirst(2).dropLast() {
            guard let space = line.firstIndex(of: " "), let size = Int64(line[..<space]) else { return nil }
            sizes[String(line[line.index(after: space)...])] = size
        }
        self.sizes = sizes
    }

    /// The manifest as a file: a header, the key, `<size> <path>` lines, and `end`
    /// (a manifest cut short has no `end` and is refused).
    var text: String {
        let lines = sizes.keys.sorted().map { "\(sizes[$0] ?? 0) \($0)" }
        return (["pgwarden cluster template", "key \(key)"] + lines + ["end"]).joined(separator: "\n") + "\n"
    }

    /// How `self` (a copy) differs from `expected`, in words; nil when it does not.
    func difference(from expected: TemplateManifest) -> String? {
        if key != expected.key { return "it is for another key" }
        for (path, size) in expected.sizes.sorted(by: { $0.key < $1.key }) {
            guard let found = sizes[path] else { return "\(path) is missing" }
            if found != size { return "\(path) has \(found) bytes instead of \(size)" }
        }
        if let extra = sizes.keys.sorted().first(where: { expected.sizes[$0] == nil }) { return "\(extra) is not in its manifest" }
        return nil
    }
}
