import Foundation
import Testing
import WardenKit
import TestSupport

/// `pgwarden dev`'s cached, bootstrapped template (docs/dev-cache.md), with the real
/// executable and a real server: the first run builds and stores it, the next copies
/// it (and says so), an unusable or stale entry is rebuilt, two runs at once both pass,
/// and nothing is left in the runs' temporary folder. Every test has its own cache
/// folder (`PGWARDEN_CACHE_DIR`), never the user's.
@Suite(.serialized) struct DevTemplateCacheTests {
    private var root: String { PackagePaths.root.path }

    /// A fresh folder with a `cache` and a `runs` folder (the runs' PGWARDEN_TMPDIR).
    private struct Place {
        let folder: String
        var cache: String { "\(folder)/cache" }
        var runs: String { "\(folder)/runs" }
        var templates: String { "\(cache)/templates" }
        var environment: [String: String] { ["PGWARDEN_CACHE_DIR": cache, "PGWARDEN_TMPDIR": runs] }

        init() throws {
            folder = "/tmp/pgw cache \(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: "\(folder)/runs", withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }

        /// The entries in the cache's templates folder.
        func entries() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: templates)) ?? [] }

        /// What the runs left in their temporary folder (nothing, once they ended).
        func leftovers() -> [String] {
            PgwardenCLI.waitFor(seconds: 10) { () -> [String]? in
                let left = (try? FileManager.default.contentsOfDirectory(atPath: runs)) ?? []
                return left.isEmpty ? [] : nil
            } ?? ((try? FileManager.default.contentsOfDirectory(atPath: runs)) ?? ["?"])
        }
    }

    private func dev(_ place: Place, _ extra: [String] = []) throws -> PgwardenCLI.Output {
        try PgwardenCLI.run(["dev"] + extra, environment: place.environment, directory: root)
    }

    /// The line starting with `prefix`, if printed.
    private func line(_ prefix: String, in output: PgwardenCLI.Output) -> String? {
        output.standardOutput.split(separator: "\n").map(String.init).first { $0.hasPrefix(prefix) }
    }

    /// "server: PostgreSQL 15.x, ready in 123 ms" -> 123.
    private func readyMilliseconds(_ output: PgwardenCLI.Output) -> Int? {
        line("server:", in: output)?.split(separator: " ").dropLast().last.flatMap { Int($0) }
    }

    private func passedWholePlan(_ output: PgwardenCLI.Output) -> Bool {
        output.status == 0 && output.standardOutput.contains("291 probes, 291 passed, 0 failed")
    }

    @Test func aSecondDevCopiesTheCachedTemplateSaysSoAndStartsFaster() throws {
        let place = try Place()
        defer { place.remove() }
        let first = try dev(place)
        #expect(passedWholePlan(first), "\(first.all)")
        #expect(line("template: ran initdb and bootstrap, cached the result in", in: first) != nil, "\(first.standardOutput)")
        #expect(place.entries().count == 1 && place.entries()[0].hasPrefix("pg"), "\(place.entries())")
        // The template holds the one WAL segment its last checkpoint is in (initdb's
        // spares, which every run would copy, are gone: it held five).
        let wal = try FileManager.default.contentsOfDirectory(atPath: "\(place.templates)/\(place.entries()[0])/data/pg_wal")
            .filter { $0.count == 24 }
        #expect(wal.count == 1, "WAL segments in the template: \(wal.sorted())")
        // Nor the statistics of the bootstrap (pg_stat_statements' ~400 statements).
        let statistics = try FileManager.default.contentsOfDirectory(atPath: "\(place.templates)/\(place.entries()[0])/data/pg_stat")
        #expect(statistics.isEmpty, "statistics files in the template: \(statistics)")
        let second = try dev(place)
        #expect(passedWholePlan(second), "\(second.all)")
        #expect(line("template: copied the bootstrapped cluster from the cache", in: second) != nil, "\(second.standardOutput)")
        // The twin came with the template: bootstrap finds every piece present.
        #expect(second.standardOutput.contains("bootstrap: the Supabase roles, schemas and objects are all present"))
        let before = try #require(readyMilliseconds(first)), after = try #require(readyMilliseconds(second))
        #expect(after < before, "the cached start took \(after) ms, the first \(before) ms")
        // The cache folder is the user's own, closed to others.
        let attributes = try FileManager.default.attributesOfItem(atPath: place.cache)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        #expect((attributes[.ownerAccountID] as? Int).map { uid_t($0) } == geteuid())
        #expect(place.leftovers().isEmpty)
    }

    @Test func aTruncatedOrHalfWrittenEntryIsNeverUsedAndIsRebuilt() throws {
        let place = try Place()
        defer { place.remove() }
        #expect(passedWholePlan(try dev(place)))
        let entry = "\(place.templates)/\(try #require(place.entries().first))"
        // Truncate the largest relation file of the postgres database to half its size.
        let manifest = try String(contentsOfFile: "\(entry)/manifest", encoding: .utf8)
        let (size, path) = try #require(
            manifest.split(separator: "\n").compactMap { line -> (Int, String)? in
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, let size = Int(parts[0]), parts[1].hasPrefix("base/") else { return nil }
                return (size, String(parts[1]))
            }.max { $0.0 < $1.0 })
        let handle = try #require(FileHandle(forWritingAtPath: "\(entry)/data/\(path)"))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let truncated = try dev(place)
        #expect(passedWholePlan(truncated), "\(truncated.all)")
        #expect(truncated.standardOutput.contains("(the cached one was unusable: \(path) has \(size / 2) bytes instead of \(size))"),
                "\(truncated.standardOutput)")
        // An entry whose manifest is cut short (a half-written entry) is rebuilt too.
        try "pgwarden cluster template\nkey x\n".write(toFile: "\(entry)/manifest", atomically: false, encoding: .utf8)
        let halfWritten = try dev(place)
        #expect(passedWholePlan(halfWritten), "\(halfWritten.all)")
        #expect(halfWritten.standardOutput.contains("(the cached one was unusable: its manifest is missing or unreadable)"))
        // The rebuilt entry is whole again: the next run copies it.
        let next = try dev(place)
        #expect(line("template: copied the bootstrapped cluster from the cache", in: next) != nil, "\(next.standardOutput)")
        #expect(place.entries().count == 1)
        #expect(place.leftovers().isEmpty)
    }

    @Test func anEntryOfAnotherKeyIsNotUsedAndIsRemoved() throws {
        // What a changed PostgreSQL or twin version leaves: an entry under another key.
        let place = try Place()
        defer { place.remove() }
        let stale = "\(place.templates)/pg15-000000000000000000000000"
        try FileManager.default.createDirectory(atPath: "\(stale)/data", withIntermediateDirectories: true)
        try "pgwarden cluster template\nkey pg15-000000000000000000000000\nend\n"
            .write(toFile: "\(stale)/manifest", atomically: false, encoding: .utf8)
        let run = try dev(place)
        #expect(passedWholePlan(run), "\(run.all)")
        #expect(line("template: ran initdb and bootstrap, cached the result in", in: run) != nil, "\(run.standardOutput)")
        #expect(place.entries().count == 1 && !place.entries().contains("pg15-000000000000000000000000"), "\(place.entries())")
        #expect(place.leftovers().isEmpty)
    }

    @Test func twoDevRunsStartedAtOnceOnAnEmptyCacheBothPass() throws {
        let place = try Place()
        defer { place.remove() }
        let runs = try (0..<2).map { _ in try PgwardenCLI.start(["dev"], environment: place.environment, directory: root) }
        let outputs = runs.map { $0.wait() }
        for output in outputs { #expect(passedWholePlan(output), "\(output.all)") }
        #expect(place.entries().count == 1, "\(place.entries())")
        let cacheFolder = (try? FileManager.default.contentsOfDirectory(atPath: place.cache)) ?? []
        #expect(cacheFolder == ["templates"], "staging folders left: \(cacheFolder)")
        // The entry that won is whole: a third run copies it.
        let third = try dev(place)
        #expect(line("template: copied the bootstrapped cluster from the cache", in: third) != nil, "\(third.standardOutput)")
        #expect(place.leftovers().isEmpty)
    }

    @Test func noCacheWritesNothingToTheCache() throws {
        let place = try Place()
        defer { place.remove() }
        let run = try dev(place, ["--no-cache"])
        #expect(passedWholePlan(run), "\(run.all)")
        #expect(line("template:", in: run) == nil, "\(run.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: place.cache))
        #expect(place.leftovers().isEmpty)
    }

    @Test func aCacheFolderOfAnotherUserIsNeverUsed() throws {
        let place = try Place()
        defer { place.remove() }
        // Made by another user: as root, give it to nobody; else a folder we cannot own is
        // not at hand, and the check is the one a non-root run makes against root's.
        try FileManager.default.createDirectory(atPath: place.cache, withIntermediateDirectories: true)
        let other: uid_t = geteuid() == 0 ? 65534 : 0
        if geteuid() == 0 { #expect(chown(place.cache, other, other) == 0) }
        let owner = (try FileManager.default.attributesOfItem(atPath: place.cache)[.ownerAccountID] as? Int).map { uid_t($0) }
        try #require(owner != geteuid() || geteuid() != 0)
        let run = try dev(place)
        #expect(passedWholePlan(run), "\(run.all)")
        if owner != geteuid() {
            #expect(run.standardOutput.contains("not cached:") && run.standardOutput.contains("belongs to another user"),
                    "\(run.standardOutput)")
            #expect(place.entries().isEmpty)
        }
        #expect(place.leftovers().isEmpty)
    }
}
