import Foundation

/// Runs the built `pgwarden` executable, as a user would, with its output captured.
public enum PgwardenCLI {
    public struct Output {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
        /// Standard output and error together.
        public var all: String { standardOutput + standardError }
    }

    /// A running `pgwarden` process.
    public final class Running {
        public let process: Process
        public let outURL: URL
        public let errURL: URL

        public init(process: Process, outURL: URL, errURL: URL) {
            self.process = process
            self.outURL = outURL
            self.errURL = errURL
        }

        /// The URL `pgwarden dev --keep` prints for its kept server (`URL: ...`), once it
        /// has, within `seconds`; nil if it never does.
        public func keptServerURL(seconds: Double = 60) -> String? {
            PgwardenCLI.waitFor(seconds: seconds) { () -> String? in
                let text = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").first { $0.hasPrefix("URL: ") }.map { String($0.dropFirst("URL: ".count)) }
            }
        }

        /// Waits for the exit and collects the output; removes the capture files.
        public func wait() -> Output {
            process.waitUntilExitPromptly()
            defer {
                try? FileManager.default.removeItem(at: outURL)
                try? FileManager.default.removeItem(at: errURL)
            }
            return Output(
                status: process.terminationStatus,
                standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
        }
    }

    /// The executable: next to the test bundle in the build products folder (SwiftPM
    /// builds every product for `swift test`), else `.build/debug/pgwarden` of this
    /// package.
    public static let executable: Result<URL, Error> = {
        var candidates: [URL] = []
        if let bundle = Bundle.main.executableURL?.deletingLastPathComponent() {
            candidates.append(bundle.appendingPathComponent("pgwarden"))
        }
        let selfExe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        candidates.append(selfExe.deletingLastPathComponent().appendingPathComponent("pgwarden"))
        let packageRoot = PackagePaths.root
        candidates.append(packageRoot.appendingPathComponent(".build/debug/pgwarden"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return .success(found)
        }
        return .failure(CLIError.notBuilt(candidates.map(\.path)))
    }()

    public enum CLIError: Error, CustomStringConvertible {
        case notBuilt([String])
        public var description: String {
            switch self {
            case .notBuilt(let paths):
                return "the pgwarden executable was not found (looked at \(paths.joined(separator: ", "))); run `swift build`"
            }
        }
    }

    /// The environment without DATABASE_URL and PG* variables, so only what a test passes counts.
    /// `dev`'s template cache is off (`PGWARDEN_NO_CACHE`) unless the test names a cache
    /// folder of its own (`PGWARDEN_CACHE_DIR`): tests never write to the user's cache.
    public static func cleanEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("PG") && key != "DATABASE_URL"
        }
        if extra["PGWARDEN_CACHE_DIR"] == nil { environment["PGWARDEN_NO_CACHE"] = "1" }
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Starts `pgwarden arguments...`; `unprivileged` runs it as `nobody` when the
    /// tests run as root (so file permissions apply to it).
    public static func start(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                      unprivileged: Bool = false) throws -> Running
    {
        let program = try executable.get()
        if unprivileged && geteuid() == 0 {
            return try launch(URL(fileURLWithPath: "/usr/bin/setpriv"),
                              ["--reuid=65534", "--regid=65534", "--clear-groups", "--", program.path] + arguments,
                              environment: environment, directory: directory)
        }
        return try launch(program, arguments, environment: environment, directory: directory)
    }

    /// Runs another program (`/usr/bin/script` giving pgwarden a terminal) to completion,
    /// in the same clean environment.
    public static func runProgram(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        try launch(URL(fileURLWithPath: path), arguments, environment: environment, directory: nil).wait()
    }

    private static func launch(_ program: URL, _ arguments: [String], environment: [String: String], directory: String?) throws -> Running {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = cleanEnvironment(environment)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let temporary = FileManager.default.temporaryDirectory
        let outURL = temporary.appendingPathComponent("pgwarden-test-out-\(UUID().uuidString)")
        let errURL = temporary.appendingPathComponent("pgwarden-test-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, outURL: outURL, errURL: errURL)
    }

    /// Runs `pgwarden arguments...` to completion.
    public static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
                    unprivileged: Bool = false) throws -> Output
    {
        try start(arguments, environment: environment, directory: directory, unprivileged: unprivileged).wait()
    }

    /// Polls `condition` until it returns a value or `seconds` pass.
    public static func waitFor<T>(seconds: Double, _ condition: () throws -> T?) rethrows -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let value = try condition() { return value }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }
}
