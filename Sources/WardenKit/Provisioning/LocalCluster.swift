import Foundation
import WardenPostgres

/// An ephemeral PostgreSQL server: data in a temporary directory, reachable only
/// through a Unix socket in that directory (no TCP port to collide with), tuned for
/// throwaway speed, and removed with everything in it by `stop()`.
///
/// PostgreSQL refuses to run as root; when the caller is root the server programs
/// run as an unprivileged OS user (`postgres`, or `PGWARDEN_PG_USER`) through
/// `setpriv`, which execs in place, so the process we hold is the postmaster itself.
public final class LocalCluster: @unchecked Sendable {
    /// The temporary directory holding the data directory, socket and server log.
    public let directory: URL
    /// The Unix socket directory (the temporary directory itself).
    public var socketDirectory: String { directory.path }
    /// The port number in the socket's file name (`.s.PGSQL.5432`); no TCP is opened.
    public let port = 5432
    /// The superuser name (trust authentication over the socket): as on Supabase,
    /// `supabase_admin` is the only superuser.
    public let superuser = LocalCluster.superuserName
    /// The role a Supabase project's migrations, seeds and SQL editor run as (not a
    /// superuser); it exists once the database is bootstrapped (`SupabaseCompat`).
    public let projectUser = "postgres"
    /// How long it took from nothing to a server accepting connections.
    public private(set) var startupDuration: Duration = .zero
    /// Where the data directory came from (`initdb`, or the template cache).
    public let origin: TemplateOrigin
    /// The server's version as `show server_version` gives it (`15.18 (Debian …)`),
    /// read from its `pg_config` before it started; nil when that was not possible.
    public let serverVersion: String?
    package let binaries: PostgresBinaries

    private var server: Process?
    /// Removes the directory and stops the server if pgwarden dies without `stop()`.
    private let watchdog: ClusterWatchdog
    private let lock = NSLock()
    /// Serialises whole stops: a second caller (Ctrl-C's handler and the main thread's
    /// cleanup) waits until the first has removed everything, so the process can never
    /// exit half-way through the removal.
    private let stopLock = NSLock()

    /// Settings for a database of this server (default: `postgres`), as `user`
    /// (default: the superuser).
    public func settings(database: String = "postgres", user: String? = nil) -> ConnectionSettings {
        ConnectionSettings(options: [
            "host": socketDirectory, "port": String(port), "user": user ?? superuser, "dbname": database,
        ])
    }

    /// A `postgresql://` URL for a database of this server, as `psql` accepts it
    /// (the socket directory percent-encoded, so spaces and the like survive), as
    /// `user` (default: the superuser).
    public func url(database: String = "postgres", user: String? = nil) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return "postgresql://\(encoded(user ?? superuser))@/\(encoded(database))?host=\(encoded(socketDirectory))&port=\(port)"
    }

    /// Server settings for a throwaway cluster. Durability is traded for speed: a
    /// crash loses the data, which is gone at `stop()` anyway.
    static let serverSettings: [String] = [
        "listen_addresses=",  // Unix socket only
        "fsync=off",  // never wait for the disk
        "synchronous_commit=off",  // commit returns before the WAL is flushed
        "full_page_writes=off",  // no torn-page protection needed
        // As on Supabase (supabase/postgres ansible/files/postgresql_config/
        // postgresql.conf.j2: wal_level = logical, max_wal_senders 10, replication slots
        // 5): a migration that adds a table to the supabase_realtime publication gets no
        // "wal_level is insufficient" warning, and one that makes a slot works.
        "wal_level=logical", "max_wal_senders=10", "max_replication_slots=5",
        "checkpoint_timeout=1h",  // no checkpoints during a short life
        "max_connections=60",  // tests run several connections in parallel
        "shared_buffers=64MB",
        // Dynamic shared memory in the data directory (pg_dynshmem), not as
        // /dev/shm/PostgreSQL.* files: a server killed with SIGKILL leaves none behind.
        "dynamic_shared_memory_type=mmap",
        "log_min_messages=warning", "log_min_error_statement=panic",  // keep the log quiet
    ]

    /// Starts a new server and waits until it accepts connections. With a `cache`, the
    /// data directory is a copy of the cached template of an `initdb`-ed, bootstrapped
    /// twin (made and stored first when missing or unusable): see `origin`.
    /// `whenInstalled` runs once the server's private installation is made, before any
    /// data directory is made or server started; what it throws stops the start (and
    /// leaves nothing behind). `dev` waits there for its input files to be checked on
    /// another thread.
    public static func start(
        timeout: Double = 30, cache: ClusterTemplateCache? = nil, whenInstalled: () throws -> Void = {}
    ) throws -> LocalCluster {
        let clock = ContinuousClock()
        let began = clock.now
        let binaries = try PostgresBinaries.locate()
        let identity = try RunIdentity.current()
        let watchdog = try ClusterWatchdog.start()
        let directory: URL
        do {
            directory = try makeTemporaryDirectory(owner: identity, watchdog: watchdog)
        } catch {
            watchdog.finish()
            throw error
        }
        do {
            let installation = try PrivateInstallation.build(in: directory.appendingPathComponent("install"), binaries: binaries)
            if installation != nil, !ProgramMount.allowsPrograms(at: directory.path) {
                throw ProvisioningError.programsNotAllowed(directory: directory.deletingLastPathComponent().path)
            }
            try whenInstalled()
            let origin = try prepareData(
                cache: cache, binaries: binaries, installation: installation, directory: directory, identity: identity,
                timeout: timeout)
            let server = try launch(binaries: binaries, installation: installation, directory: directory, identity: identity)
            let cluster = LocalCluster(
                directory: directory, binaries: binaries, server: server, watchdog: watchdog, origin: origin,
                serverVersion: installation.map { String($0.serverVersion.dropFirst("PostgreSQL ".count)) })
            do {
                try cluster.waitUntilReady(timeout: timeout)
            } catch {
                cluster.stop()
                throw error
            }
            cluster.startupDuration = clock.now - began
            return cluster
        } catch {
            try? FileManager.default.removeItem(at: directory)
            watchdog.finish()
            throw error
        }
    }

    private init(directory: URL, binaries: PostgresBinaries, server: Process, watchdog: ClusterWatchdog, origin: TemplateOrigin,
                 serverVersion: String?) {
        self.directory = directory
        self.origin = origin
        self.serverVersion = serverVersion
        self.binaries = binaries
        self.server = server
        self.watchdog = watchdog
    }

    deinit { stop() }

    /// Whether the server process is still running.
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return server?.isRunning ?? false
    }

    /// Stops the server (immediate shutdown: nothing needs saving) and deletes its
    /// directory. Safe to call more than once, and from another thread.
    public func stop() {
        stopLock.lock()
        defer { stopLock.unlock() }
        lock.lock()
        let process = server
        server = nil
        lock.unlock()
        // Only a postmaster that ended on our SIGQUIT is known to have outlived all
        // its children (one that died earlier, or was killed, may have orphans).
        var endedInOrder = process == nil
        if let process, process.isRunning {
            endedInOrder = true
            kill(process.processIdentifier, SIGQUIT)
            if !Self.waitForExit(process, seconds: 10) {
                endedInOrder = false
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExitPromptly()
            }
        }
        if process != nil || FileManager.default.fileExists(atPath: directory.path) {
            try? FileManager.default.removeItem(at: directory)
        }
        watchdog.finish(clean: endedInOrder && !FileManager.default.fileExists(atPath: directory.path))
    }

    /// Creates a new, empty database and returns settings to reach it.
    public func createDatabase(_ name: String) throws -> ConnectionSettings {
        let admin = try Connection(settings())
        try admin.query("create database \(identifier: name)")
        return settings(database: name)
    }

    /// The server's log so far (last lines), for error messages.
    public func logTail(lines: Int = 20) -> String {
        Self.logTail(directory: directory, lines: lines)
    }

    // MARK: - Steps

    /// Where throwaway clusters live: `PGWARDEN_TMPDIR` when set; else `/dev/shm` (memory:
    /// no disk work at all, which halves start-up) when it has room and is not mounted
    /// `noexec` (the run's copies of `postgres` and `initdb` run from there); else
    /// `TMPDIR` or `/tmp`.
    static func temporaryBase(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        allowsPrograms: (String) -> Bool = ProgramMount.allowsPrograms(at:)
    ) -> String {
        if let explicit = environment["PGWARDEN_TMPDIR"], !explicit.isEmpty { return explicit }
        let memory = "/dev/shm"
        if FileManager.default.isWritableFile(atPath: memory), allowsPrograms(memory),
            let free = (try? FileManager.default.attributesOfFileSystem(forPath: memory))?[.systemFreeSize] as? NSNumber,
            free.int64Value > 512 * 1024 * 1024
        {
            return memory
        }
        return environment["TMPDIR"] ?? "/tmp"
    }

    /// Creates `<base>/pgwarden-<random>` (mode 0700), announcing its path to the
    /// watchdog first. The base is resolved (symlinks), as the watchdog matches the
    /// working directories the kernel reports.
    private static func makeTemporaryDirectory(owner identity: RunIdentity, watchdog: ClusterWatchdog) throws -> URL {
        // Unix socket paths are limited to ~107 bytes, so fall back to /tmp for long paths.
        var base = temporaryBase()
        if let resolved = realpath(base, nil) {
            base = String(cString: resolved)
            free(resolved)
        }
        if base.utf8.count > 60 || base.contains("\n") { base = "/tmp" }
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var failure: Int32 = 0
        for _ in 0..<20 {
            let name = "pgwarden-" + String((0..<10).map { _ in letters.randomElement() ?? "x" })
            let path = "\(base)/\(name)"
            try watchdog.watch(directory: path)
            if mkdir(path, 0o700) == 0 {
                try identity.handOver(path)
                return URL(fileURLWithPath: path)
            }
            failure = errno
            try watchdog.watch(directory: "")  // never leave it pointing at someone else's directory
            if failure != EEXIST { break }
        }
        throw ProvisioningError.serverFailed(
            step: "creating a temporary directory in \(base)", log: String(cString: strerror(failure)))
    }

    static let superuserName = "supabase_admin"

    /// `initdb`'s options besides the data directory (part of the template's key).
    /// The locale is Supabase's, `C.UTF-8` (supabase/postgres#696, supabase/cli#1308):
    /// with `C`, `upper('é')` was `é`, `ilike` and `[[:alpha:]]` knew only ASCII, and a
    /// project's `lower(name)` lookups and tests of non-English text failed in the twin alone.
    static let initdbOptions = [
        "-U", superuserName, "--auth=trust", "--no-sync", "--encoding=UTF8", "--locale=C.UTF-8", "--no-instructions",
        // 1 MB WAL segments, not 16: the template a run copies holds one of them
        // (`removeSpareWALSegments`), so it is 15 MB smaller.
        "--wal-segsize=1",
    ]

    /// Runs `initdb`; with a private installation, through `InitdbShim`, so its
    /// backends leave nothing in `/dev/shm` whatever ends them.
    static func initialize(
        binaries: PostgresBinaries, installation: PrivateInstallation?, directory: URL, identity: RunIdentity
    ) throws {
        var initdb = binaries.initdb
        if let installation {
            let folder = directory.appendingPathComponent("initdb")
            do {
                initdb = try InitdbShim.make(in: folder, initdb: binaries.initdb, server: installation.postgres)
            } catch {
                throw ProvisioningError.serverFailed(step: "preparing initdb in \(folder.path)", log: "\(error)")
            }
        }
        let arguments = ["-D", directory.appendingPathComponent("data").path] + initdbOptions
        let (program, fullArguments) = identity.command(initdb.path, arguments)
        let output = try ProcessRunner.run(program, fullArguments, workingDirectory: directory)
        guard output.status == 0 else {
            throw ProvisioningError.serverFailed(
                step: "initdb", log: (output.standardError + output.standardOutput).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Runs the server from its private installation tree when there is one (Supabase's
    /// extension privileges and pgwarden's stand-ins), else from the system's folders.
    static func launch(
        binaries: PostgresBinaries, installation: PrivateInstallation?, directory: URL, identity: RunIdentity
    ) throws -> Process {
        var arguments = ["-D", directory.appendingPathComponent("data").path, "-k", directory.path, "-p", "5432"]
        for setting in serverSettings { arguments += ["-c", setting] }
        if let libraries = installation?.preloadLibraries, !libraries.isEmpty {
            arguments += ["-c", "shared_preload_libraries=" + libraries.joined(separator: ",")]
        }
        let (program, fullArguments) = identity.command((installation?.postgres ?? binaries.postgres).path, arguments)
        let logURL = directory.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = fullArguments
        process.currentDirectoryURL = directory
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? log.close()
        return process
    }

    /// Polls every millisecond. PostgreSQL writes `ready` in the eighth line of
    /// `postmaster.pid` once it accepts connections, and pg_ctl waits on that alone: when
    /// the file names this server's postmaster and says `ready`, the server is ready and
    /// the run's first connection follows at once. A connection attempt (a session the
    /// new server starts and ends: it confirmed the file, about 6 ms of a cached `dev`)
    /// is made only every 5 ms, in case the file cannot be read or names another process.
    private func waitUntilReady(timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        let target = settings()
        let pidFile = directory.appendingPathComponent("data/postmaster.pid").path
        let postmaster = serverProcessIdentifier
        var attempt = 0
        while true {
            defer { attempt += 1 }
            if let postmaster, Self.saysReady(pidFile, postmaster: postmaster) { return }
            if attempt % 5 == 0, Connection.ping(target) == .accepting { return }
            if !isRunning {
                throw ProvisioningError.serverFailed(step: "starting postgres", log: logTail())
            }
            if Date() > deadline {
                stop()
                throw ProvisioningError.startTimedOut(seconds: timeout, log: "")
            }
            usleep(1_000)
        }
    }

    /// The server process's pid (as root, `setpriv` execs `postgres` in it).
    private var serverProcessIdentifier: pid_t? {
        lock.lock()
        defer { lock.unlock() }
        return server?.processIdentifier
    }

    /// Whether `postmaster.pid` names `postmaster` (its first line) and says the server
    /// accepts connections.
    static func saysReady(_ pidFile: String, postmaster: pid_t) -> Bool {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8) else { return false }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count > 7 && lines[0].trimmingCharacters(in: .whitespaces) == String(postmaster)
            && lines[7].trimmingCharacters(in: .whitespaces) == "ready"
    }

    /// Polled every 0.5 ms: a postmaster ends 3 to 5 ms after SIGQUIT, so polling every
    /// 5 ms made a stop wait 5 or 10 ms.
    static func waitForExit(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() > deadline { return false }
            usleep(500)
        }
        process.waitUntilExitPromptly()
        return true
    }

    static func logTail(directory: URL, lines: Int) -> String {
        let text = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

