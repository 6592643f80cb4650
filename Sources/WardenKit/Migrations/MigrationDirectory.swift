import Foundation

/// The migrations folder: finds its migrations, reads and parses them, and rejects
/// bad input (a missing folder, duplicate versions, unreadable, non-UTF-8 or NUL-holding
/// files, FIFOs and other special files, dangling symlinks, malformed or mistyped
/// markers) before anything runs.
///
/// Two formats: single files `<version>_<name>.sql` with `-- migrate:up` /
/// `-- migrate:down` sections (dbmate; without markers, the Supabase CLI's up-only
/// files), or golang-migrate pairs `<version>_<name>.up.sql` + `.down.sql`; never both
/// in one folder. `.sql` files whose names are no migration's are skipped and listed
/// in `skipped` (the Supabase CLI skips them too). Other files and subfolders are ignored.
///
/// Migrations apply in the order the folder's own tool uses (`MigrationOrder`): file-name
/// order for single files (the Supabase CLI and dbmate sort file names), numeric order of
/// the version for golang-migrate pairs.
package struct MigrationDirectory: Sendable {
    /// The folder as the user gave it.
    package let path: String
    /// The migrations, in the order they apply (`order`).
    package let files: [MigrationFile]
    /// `.sql` files skipped because their names are not migrations' (paths as shown).
    package let skipped: [String]
    /// How this folder's own tool orders it.
    package let order: MigrationOrder

    /// A folder's migrations, already loaded (sorted here in `order`).
    package init(path: String, files: [MigrationFile], skipped: [String] = [], order: MigrationOrder = .fileName) {
        self.path = path
        self.files = order.sorted(files)
        self.skipped = skipped
        self.order = order
    }

    /// Loads and validates every migration in `path`.
    package static func load(_ path: String) throws -> MigrationDirectory {
        let names = try listSQLFiles(path)
        var skipped: [String] = []
        var singles: [(String, MigrationFileName)] = []
        var pairs: [MigrationVersion: (up: String?, down: String?)] = [:]
        var pairNames: [String] = []
        var seen: [MigrationVersion: String] = [:]
        // Every clash (version, file, the other file), named in one error after the loop.
        var clashes: [(version: String, file: String, otherFile: String)] = []
        for name in names {
            let shown = displayPath(folder: path, file: name)
            guard let parsed = MigrationFileName(name) else {
                skipped.append(shown)
                continue
            }
            if parsed.role == .whole {
                if let other = seen[parsed.version] {
                    clashes.append((parsed.version.text, shown, other))
                    continue
                }
                seen[parsed.version] = shown
                singles.append((name, parsed))
                continue
            }
            pairNames.append(name)
            var pair = pairs[parsed.version] ?? (nil, nil)
            let existing = parsed.role == .up ? pair.up : pair.down
            if let existing {
                clashes.append((parsed.version.text, shown, displayPath(folder: path, file: existing)))
                continue
            }
            if parsed.role == .up { pair.up = name } else { pair.down = name }
            pairs[parsed.version] = pair
        }
        if let first = clashes.first {
            throw MigrationInputError.duplicateVersion(
                version: first.version, file: first.file, otherFile: first.otherFile,
                moreClashes: clashes.dropFirst().map { "\($0.file) with \($0.otherFile)" })
        }
        if let single = singles.first?.0, let pairFile = pairNames.first {
            throw MigrationInputError.mixedFormats(
                file: displayPath(folder: path, file: pairFile), otherFile: displayPath(folder: path, file: single))
        }
        var files = try singles.map { try readFile(folder: path, name: $0.0) }
        for (_, pair) in pairs.sorted(by: { $0.key < $1.key }) {
            guard let up = pair.up else {
                throw MigrationInputError.downWithoutUp(file: displayPath(folder: path, file: pair.down ?? ""))
            }
            files.append(try readPair(folder: path, up: up, down: pair.down))
        }
        let order: MigrationOrder = pairNames.isEmpty ? .fileName : .numeric
        return MigrationDirectory(path: path, files: files, skipped: skipped, order: order)
    }

    /// Splits `<digits>_<name>.sql` into its version and name; nil when it does not match.
    package static func parseFileName(_ fileName: String) -> (MigrationVersion, String)? {
        guard let parsed = MigrationFileName(fileName), parsed.role == .whole else { return nil }
        return (parsed.version, parsed.name)
    }

    /// `folder/file`, with a leading `./` and trailing `/` removed from the folder.
    package static func displayPath(folder: String, file: String) -> String {
        var base = folder
        while base.hasPrefix("./") { base.removeFirst(2) }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        if base.isEmpty || base == "." { return file }
        return base == "/" ? "/\(file)" : "\(base)/\(file)"
    }

    /// The `.sql` entries that are files, sorted; throws for special files and
    /// dangling symlinks (checked with `stat`/`lstat`, never opened).
    static func listSQLFiles(_ path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw MigrationInputError.folderMissing(folder: path)
        }
        guard isFolder.boolValue else { throw MigrationInputError.notAFolder(folder: path) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw MigrationInputError.folderUnreadable(folder: path, reason: reason(path))
        }
        return try names.filter { $0.hasSuffix(".sql") }.sorted().filter { name in
            try MigrationFolderEntry.check(
                (path as NSString).appendingPathComponent(name), shown: displayPath(folder: path, file: name))
        }
    }

    static func readText(folder: String, name: String) throws -> String {
        let full = (folder as NSString).appendingPathComponent(name)
        let shown = displayPath(folder: folder, file: name)
        guard let data = FileManager.default.contents(atPath: full) else {
            throw MigrationInputError.fileUnreadable(file: shown, reason: reason(full))
        }
        return try UTF8Validation.decode(data, file: shown)
    }

    static func readFile(folder: String, name: String) throws -> MigrationFile {
        try parse(fileName: name, text: try readText(folder: folder, name: name), folder: folder)
    }

    /// A golang-migrate pair as one migration: each file is a whole section.
    static func readPair(folder: String, up: String, down: String?) throws -> MigrationFile {
        guard let parsed = MigrationFileName(up) else { throw MigrationInputError.badFileName(file: up) }
        let upShown = displayPath(folder: folder, file: up)
        let upText = LineEndings.normalize(try readText(folder: folder, name: up))
        let upSection = try MigrationParser.wholeFile(upText, file: upShown, direction: .up, markersForbidden: true)
        let downSection = try down.map { name in
            let text = LineEndings.normalize(try readText(folder: folder, name: name))
            return try MigrationParser.wholeFile(
                text, file: displayPath(folder: folder, file: name), direction: .down, markersForbidden: true)
        }
        return MigrationFile(
            version: parsed.version, name: parsed.name, path: upShown, up: upSection, down: downSection)
    }

    /// Parses one migration from its file name and text (line endings are normalized
    /// here); `folder` only shapes the path shown in errors.
    package static func parse(fileName: String, text: String, folder: String = "migrations") throws -> MigrationFile {
        let shown = displayPath(folder: folder, file: fileName)
        guard let (version, name) = parseFileName(fileName) else { throw MigrationInputError.badFileName(file: shown) }
        let normalized = LineEndings.normalize(text)
        let sections = try MigrationParser.parse(normalized, file: shown)
        return MigrationFile(
            version: version, name: name, path: shown, up: sections.up, down: sections.down)
    }

    /// Why a path cannot be read, as the system says it (e.g. "Permission denied").
    static func reason(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        if descriptor >= 0 {
            close(descriptor)
            return "read failed"
        }
        return String(cString: strerror(errno))
    }
}
