import Foundation

/// Writes a new, empty migration file (`pgwarden new NAME`).
public enum MigrationTemplate {
    /// The new file's text: an empty up and an empty down section.
    package static let text = """
        -- migrate:up


        -- migrate:down


        """

    /// Lowercase letters, digits and single underscores; nil when nothing is left.
    /// `Add listing index` becomes `add_listing_index`.
    public static func fileName(for name: String) -> String? {
        var result = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                result.unicodeScalars.append(scalar)
            } else if !result.isEmpty && !result.hasSuffix("_") {
                result += "_"
            }
        }
        while result.hasSuffix("_") { result.removeLast() }
        return result.isEmpty ? nil : result
    }

    /// The UTC `YYYYMMDDHHMMSS` version of a moment.
    package static func version(at date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let fields = [(parts.year, 4), (parts.month, 2), (parts.day, 2), (parts.hour, 2), (parts.minute, 2), (parts.second, 2)]
        return fields.map { value, width in
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }.joined()
    }

    /// Creates `<folder>/<UTC timestamp>_<name>.sql` (and the folder when missing);
    /// returns its path. A version already used in the folder moves one second on.
    /// `upOnly` (a Supabase CLI project) writes an empty file, as `supabase migration new`
    /// does: the Supabase CLI runs a whole file, so a `-- migrate:down` section there would
    /// run right after the up section.
    /// Bad names throw `MigrationInputError.invalidMigrationName`; an existing file or a
    /// folder that cannot be written, `fileExists` / `fileNotWritable`.
    @discardableResult
    public static func create(name: String, folder: String, upOnly: Bool = false, now: Date = Date()) throws -> String {
        guard let cleanName = fileName(for: name) else { throw MigrationInputError.invalidMigrationName(name: name) }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw MigrationInputError.fileNotWritable(file: folder, reason: "the folder cannot be created")
        }
        let used = Set(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { entry in
            MigrationDirectory.parseFileName(entry)?.0
        })
        var moment = now
        while let candidate = MigrationVersion(version(at: moment)), used.contains(candidate) {
            moment += 1
        }
        let fileName = "\(version(at: moment))_\(cleanName).sql"
        let path = (folder as NSString).appendingPathComponent(fileName)
        let shown = MigrationDirectory.displayPath(folder: folder, file: fileName)
        try write(upOnly ? "" : text, to: path, shown: shown)
        return shown
    }

    /// Creates the file; never overwrites one.
    static func write(_ text: String, to path: String, shown: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw MigrationInputError.fileExists(file: shown) }
            throw MigrationInputError.fileNotWritable(file: shown, reason: String(cString: strerror(errno)))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw MigrationInputError.fileNotWritable(file: shown, reason: "\(error)")
        }
    }
}
