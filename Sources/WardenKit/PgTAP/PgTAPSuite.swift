import Foundation
import WardenPostgres

/// A folder of pgTAP test files, as `supabase test db` runs it (`pg_prove --ext .pg
/// --ext .sql -r supabase/tests`): every `*.sql` and `*.pg` file under it,
/// recursively, in name order of their paths relative to the folder (byte order, so
/// the order does not depend on the locale).
public struct PgTAPSuite: Sendable {
    /// The folder, as the user named it (file names in reports start with it).
    public let folder: String
    /// The files, as `folder/relative/path.sql`, in the order they run.
    public let files: [String]
    /// The files read and cut into statements.
    let scripts: [PgTAPScript]

    /// Lists the test files of `folder`, reads them and checks every statement, so a
    /// run that would refuse its input refuses before anything is started. Throws
    /// `PgTAPError`: `.folder` when it is missing or not a folder, `.unreadable`,
    /// `.refused` (with the file and line).
    public init(folder: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw PgTAPError.folder(path: folder, reason: "no such folder")
        }
        guard isDirectory.boolValue else { throw PgTAPError.folder(path: folder, reason: "not a folder") }
        self.folder = folder
        files = try Self.testFiles(in: folder).map { Self.join(folder, $0) }
        scripts = try Self.scripts(of: files)
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
    /// and checked before anything is sent. One result per file, in order.
    public func run(on connection: Connection) throws -> [TestSuiteResult] {
        try PgTAPRunner(connection: connection, scripts: scripts).run()
    }

    /// Reads and cuts every file, before anything runs: an unreadable file or a refused
    /// statement stops the suite with a clear error, and nothing is sent.
    static func scripts(of files: [String]) throws -> [PgTAPScript] {
        try files.map { file in
            guard let data = FileManager.default.contents(atPath: file) else {
                throw PgTAPError.unreadable(file: file, reason: "missing or unreadable")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw PgTAPError.unreadable(file: file, reason: "not UTF-8")
            }
            return try PgTAPScript(file: file, text: LineEndings.normalize(text))
        }
    }
}
