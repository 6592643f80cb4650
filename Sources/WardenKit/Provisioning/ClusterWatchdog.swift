import Foundation

/// A tiny process that outlives pgwarden only to clean up after it: whatever ends
/// pgwarden (a signal at any moment, `kill -9`, a crash), the watchdog sees its
/// pipe close, stops every process working in the cluster's directory (the
/// postmaster, its backends, an `initdb` still running: all of them have their
/// working directory there) and removes the directory.
///
/// The directory's path is announced to the watchdog *before* it is created, so no
/// moment exists at which a directory could be left unknown to it. The watchdog
/// ignores the terminal's signals (Ctrl-C reaches the whole process group), reads
/// its pipe until end of file, and then cleans up; after a normal `stop()` there is
/// nothing left for it to do and it exits at once.
final class ClusterWatchdog: @unchecked Sendable {
    private let process: Process
    private let channel: FileHandle
    private let lock = NSLock()
    private var closed = false

    /// The watchdog's program (POSIX sh). Processes are found through
    /// `/proc/<pid>/cwd` (Linux): the server and `initdb` run in the directory and
    /// PostgreSQL's processes change into the data directory inside it.
    static let script = #"""
        trap '' INT TERM HUP PIPE QUIT
        dir=
        while IFS= read -r line; do
          case $line in
            "dir "*) dir=${line#dir } ;;
          esac
        done
        [ -n "$dir" ] || exit 0
        working_in_dir() {
          ls -l /proc/[0-9]*/cwd 2>/dev/null | while IFS= read -r entry; do
            target=${entry#* -> }
            case $target in
              "$dir"|"$dir"/*) entry=${entry%/cwd -> *}; echo "${entry##*/}" ;;
            esac
          done
        }
        tries=0
        while :; do
          pids=$(working_in_dir)
          if [ -z "$pids" ]; then
            rm -rf "$dir"
            [ -e "$dir" ] || break
          elif [ $tries -eq 0 ]; then
            kill -QUIT $pids 2>/dev/null
          elif [ $tries -ge 20 ]; then
            kill -KILL $pids 2>/dev/null
          fi
          tries=$((tries + 1))
          [ $tries -le 600 ] || exit 1
          sleep 0.1
        done
        """#

    private init(process: Process, channel: FileHandle) {
        self.process = process
        self.channel = channel
    }

    /// Starts a watchdog (its working directory `/`, so it never counts itself).
    static func start() throws -> ClusterWatchdog {
        let pipe = Pipe()
        // Only the watchdog may hold the read end and only pgwarden the write end:
        // close-on-exec keeps both out of initdb and postgres.
        _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipe.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "pgwarden-watchdog"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.standardInput = pipe.fileHandleForReading
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ProvisioningError.serverFailed(step: "starting the cleanup watchdog (/bin/sh)", log: "\(error)")
        }
        try? pipe.fileHandleForReading.close()
        return ClusterWatchdog(process: process, channel: pipe.fileHandleForWriting)
    }

    /// Tells the watchdog which directory to remove (before it exists).
    func watch(directory path: String) throws {
        lock.lock()
        defer { lock.unlock() }
        do {
            try channel.write(contentsOf: Data("dir \(path)\n".utf8))
        } catch {
            throw ProvisioningError.serverFailed(step: "telling the cleanup watchdog about \(path)", log: "\(error)")
        }
    }

    /// Closes the pipe: the watchdog cleans up whatever is left and exits. Waits for
    /// it, so nothing of the run outlives this call. Safe to call more than once.
    func finish() {
        lock.lock()
        let first = !closed
        closed = true
        lock.unlock()
        guard first else { return }
        try? channel.close()
        process.waitUntilExit()
    }
}
