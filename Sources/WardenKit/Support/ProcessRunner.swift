import Foundation

/// Runs a program to completion and captures its output.
enum ProcessRunner {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs a program that prints a line or two (`pg_config --bindir`): its standard
    /// output through a pipe, read to the end before waiting, its standard error
    /// discarded. Nothing is written anywhere, so a kill leaves nothing behind.
    /// `workingDirectory`: a server's directory, for a program that works there (its
    /// watchdog then stops the program too, whatever ends pgwarden).
    static func runBrief(_ path: String, _ arguments: [String], workingDirectory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExitPromptly()
        return Output(status: process.terminationStatus, standardOutput: String(decoding: data, as: UTF8.self),
                      standardError: "")
    }

    /// Runs `path` with `arguments` in `workingDirectory`; output is captured through
    /// files there, so a chatty program (initdb) can never block on a full pipe, and
    /// the files go with the directory (a server's, which its watchdog removes even if
    /// pgwarden is killed meanwhile).
    static func run(_ path: String, _ arguments: [String], workingDirectory: URL) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory
        let captureDirectory = workingDirectory
        let outURL = captureDirectory.appendingPathComponent("pgwarden-out-\(UUID().uuidString)")
        let errURL = captureDirectory.appendingPathComponent("pgwarden-err-\(UUID().uuidString)")
        // A file that could not be made fails just below, when it is opened for writing.
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
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
        process.waitUntilExitPromptly()
        try? outHandle.close()
        try? errHandle.close()
        return Output(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
}
