import Foundation
import WardenPostgres

/// Applies demo data: every `*.sql` file of a folder, in name order, in one
/// transaction, so a failing file leaves no seed row behind.
public struct Seeder {
    public let folder: URL

    public init(folder: URL) { self.folder = folder }

    /// The seed files in the order they run.
    public func files() throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SeedError(file: folder.path, message: "seeds folder not found")
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw SeedError(file: folder.path, message: "seeds folder is not readable")
        }
        return names.filter { $0.hasSuffix(".sql") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Runs every seed file; returns the files applied. Reads and checks all files
    /// before it changes anything: a statement that would end the seed transaction,
    /// touch savepoints or change the role (`SealedSQL`) is refused with its line, so
    /// "all seed files rolled back" is always the truth. Session settings a file makes
    /// (a dump's `SET` lines) end with the seeds (`SeedScripts`).
    /// Refuses (25001) on a connection already in a transaction.
    @discardableResult
    public func apply(_ connection: Connection) throws -> [URL] {
        try SeedScripts.apply(SeedScripts.check(files()), on: connection)
    }
}

/// A seed file that could not be read or failed; nothing of any seed file stays.
public struct SeedError: WardenError {
    public var file: String
    public var line: Int?
    public var message: String
    public var underlying: PGError?

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    init(file: String, line: Int?, underlying: PGError) {
        self.init(file: file, line: line, message: underlying.description)
        self.underlying = underlying
    }

    /// A seed file that cannot be read is bad input; SQL that fails, `.sqlFailed`.
    public var category: ErrorCategory { underlying == nil ? .badInput : .sqlFailed }

    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        let hint = underlying.flatMap {
            TwinGapHint.hint(for: $0) ?? SupabaseRestrictionHint.hint(for: $0) ?? Self.schemaInSeedHint(for: $0)
        }.map { "\nHINT: \($0)" } ?? ""
        return "\(location): \(message)" + hint + (underlying == nil ? "" : "\n(all seed files rolled back)")
    }

    /// A seed that creates an object that exists (42P06 schema, 42P07 relation, 42710
    /// object, 42723 function): most often a schema dump used as a seed, which repeats
    /// what the migrations made. `supabase db reset` applies the seed after the
    /// migrations too, so it fails there the same way.
    static func schemaInSeedHint(for error: PGError) -> String? {
        guard let state = error.sqlState?.rawValue, ["42P06", "42P07", "42710", "42723"].contains(state) else { return nil }
        return "the seed creates what already exists (a schema dump used as a seed repeats what the migrations made): "
            + "a seed holds data only (supabase db dump --data-only writes one); supabase db reset fails on it the same way"
    }
}
