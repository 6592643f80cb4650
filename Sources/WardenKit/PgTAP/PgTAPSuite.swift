import Foundation
import WardenPostgres

/// A folder of pgTAP test files, as `supabase test db` runs it (`pg_prove --ext .pg
/// --ext .sql -r supabase/tests`): every `*.sql` and `*.pg` file under it,
/// recursively, in name order of their paths relative to the folder (byte order, so
/// the order does not depend on the locale). A file meant only to be included (`\ir
/// _shared/helper.sql`) still runs on its own when it ends in `.sql` or `.pg`, as under
/// pg_prove; pgTAP suites name such files otherwise (`helper.sql.raw`).
public struct PgTAPSuite: Sendable {
    /// The folder, as the user named it (file names in reports start with it).
    public let folder: String
    /// The files, as `folder/relative/path.sql`, in the order they run.
    public let files: [String]
    /// The files read and cut into statements, or why one cannot run (it fails alone).
    let scripts: [(file: String, script: Result<PgTAPScript, PgTAPError>)]

    /// Lists the test files of `folder`, reads them (inlining psql's includes: `\i`
    /// relative to the folder, where `supabase test db` runs pg_prove) and checks every
    /// statement before anything is started. Throws `PgTAPError.folder` when the folder
    /// is missing or not a folder; a file that cannot be read or is refused
    /// (`.unreadable`, `.refused`, `.include`, with the file and line) does not stop
    /// the suite: `run` reports it as that file's failure, and `problems` lists it.
    public init(folder: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw PgTAPError.folder(path: folder, reason: "no such folder")
        }
        guard isDirectory.boolValue else { throw PgTAPError.folder(path: folder, reason: "not a folder") }
        self.folder = folder
        files = try Self.testFiles(in: folder).map { Self.join(folder, $0) }
        scripts = Self.scripts(of: files, workingDirectory: folder)
    }

    /// The files that cannot run, each with why (they fail when the suite runs).
    public var problems: [PgTAPError] {
        scripts.compactMap { if case .failure(let error) = $0.script { error } else { nil } }
    }

    /// The default tests folder of a project at `root`, or nil: `supabase/tests` when it
    /// exists, else `tests` when it holds `.sql` or `.pg` files. The one place that
    /// decides it (a project layout type may call it, or replace it).
    public static func discover(in root: String = ".") -> String? {
        var isDirectory: ObjCBool = false
        let supabase = join(root, "supabase/tests")
        if FileManager.default.fileExists(atPath: supabase, isDirectory: &isDirectory), isDirectory.boolValue {
            return root == "." ? "supabase/tests" : supabase
        }
        let plain = join(root, "tests")
        guard let files = try? testFiles(in: plain), !files.isEmpty else { return nil }
        return root == "." ? "tests" : plain
    }

    /// True for the names pgTAP suites use: `*.sql` and `*.pg`.
    static func isTestFile(_ name: String) -> Bool {
        (name.hasSuffix(".sql") || name.hasSuffix(".pg")) && !name.hasPrefix(".")
    }

    /// Relative paths of the test files under `folder`, sorted.
    static func testFiles(in folder: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else {
            throw PgTAPError.folder(path: folder, reason: "cannot be listed")
        }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let name = (relative as NSString).lastPathComponent
            guard isTestFile(name), FileManager.default.fileExists(atPath: join(folder, relative), isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            found.append(relative)
        }
        return found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    static func join(_ folder: String, _ relative: String) -> String {
        folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }

    /// Runs every file on `connection` (as the project role: `postgres` on Supabase),
    /// each in a savepoint that is rolled back, the whole run in a transaction that is
    /// rolled back; creates pgTAP for the run when it is missing. Every file is read
    /// and checked before anything is sent; one that cannot run fails without sending
    /// anything. One result per file, in order.
    public func run(on connection: Connection) throws -> [TestSuiteResult] {
        try PgTAPRunner(connection: connection, scripts: scripts).run()
    }

    /// Reads and cuts every file, before anything runs: an unreadable file or a refused
    /// statement becomes that file's failure, and nothing of it is sent.
    static func scripts(
        of files: [String], workingDirectory: String
    ) -> [(file: String, script: Result<PgTAPScript, PgTAPError>)] {
        files.map { file in
            (file, Result {
                let text = try TextFile.read(atPath: file).mapError {
                    PgTAPError.unreadable(file: file, reason: $0 == .unreadable ? "missing or unreadable" : "not UTF-8")
                }.get()
                return try PgTAPScript(file: file, text: LineEndings.normalize(text), workingDirectory: workingDirectory)
            }.mapError { $0 as? PgTAPError ?? .unreadable(file: file, reason: "\($0)") })
        }
    }
}
