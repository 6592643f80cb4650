import Foundation
import WardenPostgres

/// A project's seed files, read and checked once (`Project.checkedSeeds()`): `apply(on:)`
/// runs the texts that were checked, without reading the files again (a seed may be a
/// dump of tens of megabytes; and what was checked is what runs, even if a file
/// changes in between).
public struct Seeds: Sendable {
    /// Where the files come from.
    public let source: SeedSource
    private let scripts: [SeedScripts.Checked]
    /// Whether there was anything to apply when the files were read (`source.isPresent`).
    private let isPresent: Bool

    /// Reads and checks `source`'s files: a file that cannot be read, is not UTF-8, holds
    /// a NUL byte, or would end the seed transaction, touch savepoints or change the role
    /// is an error naming its line.
    public init(_ source: SeedSource) throws {
        self.source = source
        isPresent = source.isPresent
        scripts = try SeedScripts.check(source.files())
    }

    /// The files in the order they apply (empty when there are none).
    public var files: [URL] { scripts.map(\.file) }

    /// What the user should know before the files run, one line each: a file whose
    /// top-level BEGIN/COMMIT pairs are dropped (it runs in the seeds' one transaction).
    public var notes: [String] { scripts.compactMap(\.note) }

    /// Applies the files in one transaction; returns them, or nil when there is nothing
    /// to apply (no seeds folder, no file, or seeding disabled in `config.toml`). A
    /// failing file rolls every seed back and throws `SeedError` naming its line.
    /// `observer` hears each file start and finish (a dump may take a while).
    public func apply(on connection: Connection, observer: (SeedEvent) -> Void = { _ in }) throws -> [URL]? {
        guard isPresent else { return nil }
        return try SeedScripts.apply(scripts, on: connection, observer: observer)
    }
}

/// What applying seeds reports as it goes.
public enum SeedEvent: Sendable, Equatable {
    /// A file is about to run.
    case started(file: URL)
    /// A file ran (its changes are committed only when every file has run).
    case finished(file: URL, duration: Duration)
}
