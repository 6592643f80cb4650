import Foundation

/// The PostgreSQL server programs LocalCluster needs (`initdb`, `postgres`).
package struct PostgresBinaries: Sendable {
    /// The folder holding `initdb` and `postgres`.
    package let directory: URL

    package var initdb: URL { directory.appendingPathComponent("initdb") }
    package var postgres: URL { directory.appendingPathComponent("postgres") }

    /// Finds the server programs: `pg_config --bindir`, then `PATH`, then the highest
    /// `/usr/lib/postgresql/<major>/bin` (Debian's layout). `PGWARDEN_PG_BINDIR` wins
    /// over all of them when set.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> PostgresBinaries
    {
        var candidates: [String] = []
        if let explicit = environment["PGWARDEN_PG_BINDIR"] { candidates.append(explicit) }
        if let fromPgConfig = pgConfigBindir(environment: environment) { candidates.append(fromPgConfig) }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(resolvedFolder(of: "\(folder)/initdb") ?? String(folder))
        }
        candidates += debianBinFolders()
        for folder in candidates where isServerFolder(folder) {
            return PostgresBinaries(directory: URL(fileURLWithPath: folder))
        }
        throw ProvisioningError.binariesMissing(searched: candidates)
    }

    private static func isServerFolder(_ folder: String) -> Bool {
        let manager = FileManager.default
        return manager.isExecutableFile(atPath: "\(folder)/initdb")
            && manager.isExecutableFile(atPath: "\(folder)/postgres")
    }

    /// The real folder of a program reached through a symlink (e.g. /usr/local/bin/initdb).
    private static func resolvedFolder(of path: String) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        return resolved.deletingLastPathComponent().path
    }

    private static func pgConfigBindir(environment: [String: String]) -> String? {
        for folder in (environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/pg_config"
            guard FileManager.default.isExecutableFile(atPath: path) else { continue }
            // Debian's /usr/bin/pg_config (postgresql-common) is a shell script that
            // runs the highest /usr/lib/postgresql/*/bin/pg_config: three processes,
            // about 15 ms of every `pgwarden dev`. The Debian folders, searched last
            // and highest first, give the same answer without running it.
            if isDebianWrapper(path) { return nil }
            let output = try? ProcessRunner.runBrief(path, ["--bindir"])
            if let output, output.status == 0 {
                return output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return nil
    }

    /// Whether `path` is postgresql-common's pg_config wrapper (a script that picks
    /// the highest `/usr/lib/postgresql/*/bin/pg_config`).
    static func isDebianWrapper(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
        return head.hasPrefix("#!") && head.contains(#"PGBINROOT="/usr/lib/postgresql/""#)
    }

    /// `/usr/lib/postgresql/*/bin`, highest major version first.
    private static func debianBinFolders() -> [String] {
        let root = "/usr/lib/postgresql"
        let majors = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return majors.compactMap(Int.init).sorted(by: >).map { "\(root)/\($0)/bin" }
    }
}
