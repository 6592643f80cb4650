import Foundation

/// Runs a program to completion and captures its output.
enum ProcessRunner {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs `path` with `arguments`; output is captured through temporary files so a
    /// chatty program can never block on a full pipe. The files go in the working
    /// directory when one is given (a server's directory, which its watchdog removes
    /// even if pgwarden is killed meanwhile), else in the temporary directory.
    static func run(_ path: String, _ arguments: [String], workingDirectory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let captureDirectory = workingDirectory ?? FileManager.default.temporaryDirectory
        let outURL = captureDirectory.appendingPathComponent("pgwarden-out-\(UUID().uuidString)")
        let errURL = captureDirectory.appendingPathComponent("pgwarden-err-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try? outHandle.close()
        try? errHandle.close()
        return Output(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
}
