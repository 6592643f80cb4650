import Foundation

/// The migrations folder: finds `<version>_<name>.sql` files, reads and parses them,
/// and rejects bad input (a missing folder, a badly named `.sql` file, duplicate
/// versions, unreadable or non-UTF-8 files, malformed markers) before anything runs.
///
/// Files that do not end in `.sql` (READMEs, editor backups) and subfolders are ignored.
public struct MigrationDirectory: Sendable {
    /// The folder as the user gave it.
    public let path: String
    /// The migrations, in version order.
    public let files: [MigrationFile]

    /// A folder's migrations, already loaded (sorted here by version).
    public init(path: String, files: [MigrationFile]) {
        self.path = path
        self.files = files.sorted { $0.version < $1.version }
    }

    /// Loads and validates every migration in `path`.
    public static func load(_ path: String) throws -> MigrationDirectory {
        let names = try listSQLFiles(path)
        var files: [MigrationFile] = []
        var seen: [MigrationVersion: String] = [:]
        for name in names {
            let shown = displayPath(folder: path, file: name)
            guard let (version, migrationName) = parseFileName(name) else {
                throw MigrationInputError.badFileName(file: shown)
            }
            if let other = seen[version] {
                throw MigrationInputError.duplicateVersion(version: version.text, file: shown, otherFile: other)
            }
            seen[version] = shown
            files.append(try readFile(folder: path, name: name))
        }
        return MigrationDirectory(path: path, files: files)
    }

    /// Splits `<digits>_<name>.sql` into its version and name; nil when it does not match.
    public static func parseFileName(_ fileName: String) -> (MigrationVersion, String)? {
        guard fileName.hasSuffix(".sql"), let underscore = fileName.firstIndex(of: "_") else { return nil }
        let name = fileName[fileName.index(after: underscore)..<fileName.index(fileName.endIndex, offsetBy: -4)]
        guard let version = MigrationVersion(String(fileName[..<underscore])), !name.isEmpty,
            !name.contains(where: { $0.isWhitespace || $0.isNewline })
        else { return nil }
        return (version, String(name))
    }

    /// `folder/file`, with a leading `./` and trailing `/` removed from the folder.
    public static func displayPath(folder: String, file: String) -> String {
        var base = folder
        while base.hasPrefix("./") { base.removeFirst(2) }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        if base.isEmpty || base == "." { return file }
        return base == "/" ? "/\(file)" : "\(base)/\(file)"
    }

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
        return names.filter { name in
            var entryIsFolder: ObjCBool = false
            let full = (path as NSString).appendingPathComponent(name)
            return name.hasSuffix(".sql")
                && FileManager.default.fileExists(atPath: full, isDirectory: &entryIsFolder) && !entryIsFolder.boolValue
        }.sorted()
    }

    static func readFile(folder: String, name: String) throws -> MigrationFile {
        let full = (folder as NSString).appendingPathComponent(name)
        let shown = displayPath(folder: folder, file: name)
        guard let data = FileManager.default.contents(atPath: full) else {
            throw MigrationInputError.fileUnreadable(file: shown, reason: reason(full))
        }
        return try parse(fileName: name, text: try UTF8Validation.decode(Array(data), file: shown), folder: folder)
    }

    /// Parses one migration from its file name and text (line endings are normalized
    /// here); `folder` only shapes the path shown in errors.
    public static func parse(fileName: String, text: String, folder: String = "migrations") throws -> MigrationFile {
        let shown = displayPath(folder: folder, file: fileName)
        guard let (version, name) = parseFileName(fileName) else { throw MigrationInputError.badFileName(file: shown) }
        let normalized = LineEndings.normalize(text)
        let sections = try MigrationParser.parse(normalized, file: shown)
        return MigrationFile(
            version: version, name: name, path: shown, text: normalized, up: sections.up, down: sections.down)
    }

    /// Why a path cannot be read, as the system says it (e.g. "Permission denied").
    static func reason(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        if descriptor >= 0 {
            close(descriptor)
            return "read failed"
        }
        return String(cString: strerror(errno))
    }
}

/// Strict UTF-8 decoding that says where the first invalid byte is.
enum UTF8Validation {
    /// Decodes `bytes` (dropping a leading byte-order mark); throws `.notUTF8` with
    /// the line of the first invalid sequence.
    static func decode(_ bytes: [UInt8], file: String) throws -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        var iterator = body.makeIterator()
        var decoder = Unicode.UTF8()
        var scalars = String.UnicodeScalarView()
        var line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
                scalars.append(scalar)
            case .emptyInput:
                return String(scalars)
            case .error:
                throw MigrationInputError.notUTF8(file: file, line: line)
            }
        }
    }
}
