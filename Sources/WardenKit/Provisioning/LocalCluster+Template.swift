import Foundation
import WardenPostgres

/// The data directory of a new cluster, from the template cache when one is given.
extension LocalCluster {
    /// Fills `<directory>/data`: `initdb` alone without a cache; with one, a checked
    /// copy of the cached template, or, when there is none or it is unusable, `initdb`
    /// and the twin's bootstrap on a server started and stopped here, stored in the
    /// cache for the next run. Everything happens inside `directory`, which the
    /// watchdog removes (with any server) whatever ends pgwarden; the cache only ever
    /// receives whole entries by rename.
    static func prepareData(
        cache: ClusterTemplateCache?, binaries: PostgresBinaries, installation: PrivateInstallation?, directory: URL,
        identity: RunIdentity, timeout: Double
    ) throws -> TemplateOrigin {
        guard let cache else {
            try initialize(binaries: binaries, installation: installation, directory: directory, identity: identity)
            return .initdb
        }
        let data = directory.appendingPathComponent("data")
        var key: ClusterTemplateKey?
        var replaced: String?
        var unusable: String?
        do {
            try cache.checkUsable()
            let current = try ClusterTemplateKey.current(
                binaries: binaries, knownVersion: installation?.serverVersion, identity: identity,
                initdbArguments: initdbOptions)
            key = current
            do {
                if let entry = try cache.copy(current, to: data) {
                    cache.removeAbandoned()
                    return .cached(entry: entry.path)
                }
            } catch let problem as TemplateCacheProblem {
                replaced = problem.description
                cache.discard(current)
            }
        } catch {
            unusable = "\(error)"
        }
        try initialize(binaries: binaries, installation: installation, directory: directory, identity: identity)
        try bootstrapTemplate(binaries: binaries, installation: installation, directory: directory, identity: identity, timeout: timeout)
        guard let key, unusable == nil else { return .uncached(reason: unusable ?? "no key") }
        do {
            return .built(entry: try cache.store(data, as: key).path, replaced: replaced)
        } catch {
            return .uncached(reason: "\(error)")
        }
    }

    /// Starts a server on the new data directory, bootstraps the twin as the
    /// superuser, and stops it cleanly (a fast shutdown: a checkpoint, so a copy
    /// starts without crash recovery).
    private static func bootstrapTemplate(
        binaries: PostgresBinaries, installation: PrivateInstallation?, directory: URL, identity: RunIdentity, timeout: Double
    ) throws {
        let server = try launch(binaries: binaries, installation: installation, directory: directory, identity: identity)
        do {
            let settings = ConnectionSettings(options: [
                "host": directory.path, "port": "5432", "user": superuserName, "dbname": "postgres",
            ])
            try waitUntilAccepting(server, settings: settings, directory: directory, timeout: timeout)
            try SupabaseCompat.bootstrap(Connection(settings))
        } catch {
            kill(server.processIdentifier, SIGQUIT)
            if !waitForExit(server, seconds: 10) { kill(server.processIdentifier, SIGKILL) }
            throw error
        }
        kill(server.processIdentifier, SIGINT)
        guard waitForExit(server, seconds: timeout) else {
            kill(server.processIdentifier, SIGKILL)
            throw ProvisioningError.serverFailed(step: "stopping the template's server", log: logTail(directory: directory, lines: 20))
        }
        guard server.terminationStatus == 0 else {
            throw ProvisioningError.serverFailed(step: "stopping the template's server", log: logTail(directory: directory, lines: 20))
        }
        removeSpareWALSegments(of: directory.appendingPathComponent("data"))
        removeSavedStatistics(of: directory.appendingPathComponent("data"))
    }

    /// Removes the statistics the template's server saved when it stopped (`pg_stat`:
    /// the cumulative statistics and pg_stat_statements' file): what they counted is the
    /// twin's bootstrap, about 400 statements of pgwarden's own that every run's
    /// `pg_stat_statements` showed, and every server start read. A run's server starts
    /// with none, as after a statistics reset.
    static func removeSavedStatistics(of data: URL) {
        let folder = data.appendingPathComponent("pg_stat").path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            unlink("\(folder)/\(name)")
        }
    }

    /// What is removed from a template once its server stopped (part of the template's
    /// key: an entry tidied otherwise is rebuilt).
    static let templateTidying = "spare WAL segments; saved statistics"

    /// Removes the spare WAL segments of a stopped server: old segments renamed for
    /// reuse (initdb leaves four), never written since. A segment that has been written
    /// starts with a page whose header names the segment's own position in the WAL
    /// (`xlp_pageaddr`, in the server's byte order); a spare's still names its old one.
    /// The server makes a new segment when it needs one, and every run would otherwise
    /// copy and delete the spares. A file that cannot be read or named is kept.
    static func removeSpareWALSegments(of data: URL) {
        let wal = data.appendingPathComponent("pg_wal").path
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: wal) else { return }
        for name in entries where isSpareSegment("\(wal)/\(name)", name: name) {
            unlink("\(wal)/\(name)")
        }
    }

    /// Whether the file is a WAL segment (its name: timeline, log and segment, 24 hex
    /// digits) whose first page header names another position.
    static func isSpareSegment(_ path: String, name: String) -> Bool {
        guard name.utf8.count == 24, let log = UInt64(name.dropFirst(8).prefix(8), radix: 16),
            let segment = UInt64(name.dropFirst(16), radix: 16)
        else { return false }
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var status = stat()
        var header = [UInt8](repeating: 0, count: 16)
        guard fstat(file, &status) == 0, status.st_size > 0, (UInt64(status.st_size) & (UInt64(status.st_size) - 1)) == 0,
            read(file, &header, 16) == 16
        else { return false }
        let size = UInt64(status.st_size)
        let position = (log * (0x1_0000_0000 / size) + segment) * size
        let named = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self) }
        return named != position
    }

    private static func waitUntilAccepting(_ server: Process, settings: ConnectionSettings, directory: URL, timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Connection.ping(settings) != .accepting {
            if !server.isRunning {
                throw ProvisioningError.serverFailed(step: "starting postgres", log: logTail(directory: directory, lines: 20))
            }
            if Date() > deadline { throw ProvisioningError.startTimedOut(seconds: timeout, log: "") }
            usleep(5_000)
        }
    }
}
