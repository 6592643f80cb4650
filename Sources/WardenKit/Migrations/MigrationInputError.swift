/// Bad input found before anything is changed: a migrations folder or file that
/// cannot be used, or a version asked for that does not exist.
///
/// Every description is one line that names the problem and the file (as
/// `path:line: problem` when a line is known).
public enum MigrationInputError: WardenError, Equatable, Sendable {
    /// The migrations folder does not exist.
    case folderMissing(folder: String)
    /// The path exists but is not a folder.
    case notAFolder(folder: String)
    /// The folder cannot be listed.
    case folderUnreadable(folder: String, reason: String)
    /// A `.sql` file whose name is not `<digits>_<name>.sql`.
    case badFileName(file: String)
    /// Two files with the same version (compared as numbers: `0001` equals `1`);
    /// `moreClashes`, the folder's other such pairs (`file` with `otherFile`), so that one
    /// run names them all (a project with three took three runs to find them).
    case duplicateVersion(version: String, file: String, otherFile: String, moreClashes: [String] = [])
    /// A file that cannot be read.
    case fileUnreadable(file: String, reason: String)
    /// A file that is not valid UTF-8; `line` is where the first bad byte is.
    case notUTF8(file: String, line: Int)
    /// SQL before the `-- migrate:up` marker (only comments and blank lines may come first).
    case statementsBeforeUpMarker(file: String, line: Int)
    /// A `-- migrate:<something>` line that is neither `up` nor `down`.
    case unknownMarker(file: String, line: Int, marker: String)
    /// `-- migrate:down` before (or without) `-- migrate:up`.
    case downBeforeUp(file: String, line: Int)
    /// A marker that appears twice.
    case repeatedMarker(file: String, line: Int, marker: String, firstLine: Int)
    /// A marker option other than `transaction:true|false`.
    case unknownMarkerOption(file: String, line: Int, option: String)
    /// BEGIN, COMMIT, ROLLBACK... that pgwarden cannot honour in a section it runs in
    /// a transaction; `problem` says why.
    case transactionControl(file: String, line: Int, statement: String, direction: String, problem: String)
    /// A comment that reads like a section marker but is not exactly one.
    case markerLookAlike(file: String, line: Int, text: String)
    /// A marker in a golang-migrate `.up.sql`/`.down.sql` file (the file is the section).
    case markerInPairFile(file: String, line: Int)
    /// A NUL byte: PostgreSQL cannot take it, and C strings would cut the file there.
    case nulByte(file: String, line: Int)
    /// A `.sql` entry that is not a regular file (FIFO, socket, device); never opened.
    case notARegularFile(file: String, kind: String)
    /// A `.sql` symbolic link whose target does not exist.
    case danglingSymlink(file: String, target: String)
    /// Single-file migrations and golang-migrate pairs in one folder.
    case mixedFormats(file: String, otherFile: String)
    /// A golang-migrate `.down.sql` without its `.up.sql`.
    case downWithoutUp(file: String)
    /// A setting that changes how SQL is lexed (`standard_conforming_strings` other than on).
    case lexingSetting(file: String, line: Int, setting: String)
    /// An up section with no statement in it.
    case emptyUpSection(file: String, line: Int)
    /// A target version that no file (and no history row) has.
    case unknownVersion(version: String, folder: String)
    /// A new migration's name that leaves nothing usable for a file name.
    case invalidMigrationName(name: String)
    /// A file that cannot be created or written.
    case fileNotWritable(file: String, reason: String)
    /// A file to be created already exists.
    case fileExists(file: String)

    public var category: ErrorCategory { .badInput }

    /// How many of a `duplicateVersion`'s other clashes its description lists.
    static let shownClashes = 20

    public var description: String {
        switch self {
        case .folderMissing(let folder):
            return "migrations folder \(folder) does not exist"
        case .notAFolder(let folder):
            return "migrations folder \(folder) is not a folder"
        case .folderUnreadable(let folder, let reason):
            return "migrations folder \(folder) cannot be read: \(reason)"
        case .badFileName(let file):
            return "\(file): migration file names must be <digits>_<name>.sql, e.g. 20261121000100_create_table.sql"
        case .duplicateVersion(let version, let file, let otherFile, let moreClashes):
            // One clash a line, at most `shownClashes` (a project of 176 migrations had
            // 119 clashes: one line of 12 kB; round thirty-eight).
            let shown = moreClashes.prefix(Self.shownClashes).map { "\n  \($0)" }.joined()
            let rest = moreClashes.count > Self.shownClashes ? "\n  ... and \(moreClashes.count - Self.shownClashes) more" : ""
            let more = moreClashes.isEmpty ? "" : "; \(moreClashes.count) more clash\(moreClashes.count == 1 ? "" : "es"):" + shown + rest
            return "\(file): version \(version) is also used by \(otherFile); every migration needs its own version\(more)"
        case .fileUnreadable(let file, let reason):
            return "\(file): cannot be read: \(reason)"
        case .notUTF8(let file, let line):
            return "\(file):\(line): not valid UTF-8 text; save the file as UTF-8"
        case .statementsBeforeUpMarker(let file, let line):
            return "\(file):\(line): SQL before the `-- migrate:up` marker; only comments may come before it"
        case .unknownMarker(let file, let line, let marker):
            return "\(file):\(line): unknown marker `\(marker)`; the markers are `-- migrate:up` and `-- migrate:down`"
        case .downBeforeUp(let file, let line):
            return "\(file):\(line): `-- migrate:down` comes before `-- migrate:up`; put the up section first"
        case .repeatedMarker(let file, let line, let marker, let firstLine):
            return "\(file):\(line): `-- migrate:\(marker)` appears again (first on line \(firstLine)); each marker may appear once"
        case .unknownMarkerOption(let file, let line, let option):
            return "\(file):\(line): unknown marker option `\(option)`; the only option is `transaction:false` (or `transaction:true`)"
        case .transactionControl(let file, let line, let statement, let direction, let problem):
            if problem == TransactionControlCheck.Problem.inMarkedSection {
                return "\(file):\(line): `\(statement)` \(problem); "
                    + "remove it, or mark the section `-- migrate:\(direction) transaction:false`"
            }
            return "\(file):\(line): `\(statement)`: \(problem). pgwarden runs a file without markers in one "
                + "transaction of its own (balanced top-level BEGIN ... COMMIT pairs are dropped); nothing was changed"
        case .markerLookAlike(let file, let line, let text):
            return "\(file):\(line): `\(text.trimmingWhitespaceForMessage)` looks like a section marker but is not one; "
                + "write exactly `-- migrate:up` or `-- migrate:down` (lowercase, one colon), or reword the comment"
        case .markerInPairFile(let file, let line):
            return "\(file):\(line): a section marker in a golang-migrate .up.sql/.down.sql file; "
                + "in that format the whole file is the section: remove the marker"
        case .nulByte(let file, let line):
            return "\(file):\(line): contains a NUL byte (\\0), which PostgreSQL cannot take; remove it"
        case .notARegularFile(let file, let kind):
            return "\(file): is a \(kind), not a regular file; pgwarden does not open it. Remove it or rename it "
                + "so it does not end in .sql"
        case .danglingSymlink(let file, let target):
            return "\(file): is a symbolic link to \(target), which does not exist"
        case .mixedFormats(let file, let otherFile):
            return "\(file): golang-migrate .up.sql/.down.sql pairs and single-file migrations (\(otherFile)) "
                + "in one folder; use one format"
        case .downWithoutUp(let file):
            return "\(file): a golang-migrate down file without its .up.sql file"
        case .lexingSetting(let file, let line, let setting):
            return "\(file):\(line): migrations may not change \(setting) (it changes how SQL text is read, so "
                + "the section would mean different things with and without a transaction); pgwarden keeps it on: "
                + "write E'...' strings for backslash escapes"
        case .emptyUpSection(let file, let line):
            return "\(file):\(line): the up section is empty; write the migration's SQL after `-- migrate:up`"
        case .unknownVersion(let version, let folder):
            return "no migration has version \(version) (in \(folder) or the history)"
        case .invalidMigrationName(let name):
            return "`\(name)` is not a usable migration name; use letters, digits and underscores, e.g. create_listing"
        case .fileNotWritable(let file, let reason):
            return "\(file): cannot be written: \(reason)"
        case .fileExists(let file):
            return "\(file): already exists"
        }
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs, for quoting in a message.
    var trimmingWhitespaceForMessage: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
