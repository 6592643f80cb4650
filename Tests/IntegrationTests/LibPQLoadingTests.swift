import Foundation
import Testing
import TestSupport

/// pgwarden loads libpq itself, when first needed (`LibPQLoader.c`; issue 18: linked,
/// its libraries cost about 8 ms of every start). Without libpq on the host, what needs
/// no database still works, and what needs one stops with what to install, not with the
/// dynamic linker's message before `main`. Each run has a mount namespace of its own
/// (`unshare --mount`) where the host's libpq is hidden under an empty file: nothing
/// outside the run sees it. Needs root (CAP_SYS_ADMIN), as the tests have in CI.
@Suite struct LibPQLoadingTests {
    private struct Run {
        var status: Int32
        var output: String
    }

    /// Runs `pgwarden arguments...` with the host's libpq (the file `ldconfig` finds for
    /// libpq.so.5) replaced by an empty one.
    private func withoutLibPQ(_ arguments: [String], in folder: String? = nil) throws -> Run {
        let program = try PgwardenCLI.executable.get().path
        let script = """
            library="$(/sbin/ldconfig -p | awk '/libpq\\.so\\.5 /{ print $NF; exit }')"
            [ -n "$library" ] || { echo "no libpq.so.5 in the loader's cache"; exit 90; }
            mount --bind /dev/null "$(readlink -f "$library")" || { echo "mount failed (needs root)"; exit 90; }
            exec "$0" "$@" 2>&1
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-c", script, program] + arguments
        process.environment = PgwardenCLI.cleanEnvironment()
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: output)
    }

    @Test func whatNeedsNoDatabaseWorksWithoutLibPQ() throws {
        let version = try withoutLibPQ(["--version"])
        #expect(version.status == 0, "\(version.output)")
        #expect(version.output.first?.isNumber == true, "\(version.output)")
        let help = try withoutLibPQ(["test", "--help"])
        #expect(help.status == 0, "\(help.output)")
        #expect(help.output.contains("USAGE: pgwarden test"), "\(help.output)")
        // A project is made without a database.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pgw-nolibpq-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let initialized = try withoutLibPQ(["init", folder, "--example", "todo"])
        #expect(initialized.status == 0, "\(initialized.output)")
        #expect(FileManager.default.fileExists(atPath: folder + "/access-plan.yml"), "\(initialized.output)")
    }

    /// What only prints does not load libpq at all: the process's exit waited for the
    /// load in progress (`--version` took about 13 ms where 4 do).
    @Test(arguments: [["--version"], ["--help"], ["test", "--help"], ["help", "dev"]])
    func whatOnlyPrintsDoesNotLoadLibPQ(_ arguments: [String]) throws {
        var environment = PgwardenCLI.cleanEnvironment()
        environment["LD_DEBUG"] = "files"
        let run = try PgwardenCLI.run(arguments, environment: environment)
        #expect(run.status == 0, "\(run.all)")
        #expect(!run.standardError.contains("libpq.so.5"), "\(run.standardError.split(separator: "\n").filter { $0.contains("libpq") })")
        // What connects loads it.
        let connecting = try PgwardenCLI.run(
            ["status", "--database-url", "postgresql://postgres@/postgres?host=/nonexistent"], environment: environment)
        #expect(connecting.standardError.contains("libpq.so.5"), "\(connecting.status)")
    }

    @Test func whatNeedsADatabaseSaysWhatToInstall() throws {
        // Fails at the first libpq call (reading the URL), before anything connects.
        let run = try withoutLibPQ(["test", "--database-url", "postgresql://postgres@/postgres?host=/nonexistent"])
        #expect(run.status == 69, "\(run.output)")  // EX_UNAVAILABLE
        #expect(run.output.hasPrefix("pgwarden: cannot load libpq: "), "\(run.output)")
        #expect(run.output.contains("libpq.so.5"), "\(run.output)")
        #expect(run.output.contains("apt-get install libpq5"), "\(run.output)")
        // The loader's own message (before main) is not what the user gets.
        #expect(!run.output.contains("error while loading shared libraries"), "\(run.output)")
        #expect(run.output.split(separator: "\n").count == 1, "\(run.output)")
    }
}
