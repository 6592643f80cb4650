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
    private let pid: pid_t
    /// The write end of the watchdog's standard input (close-on-exec).
    private let channel: Int32
    private let lock = NSLock()
    private var closed = false

    /// The watchdog's program (POSIX sh). Processes are found through
    /// `/proc/<pid>/cwd` (Linux): the server and `initdb` run in the directory and
    /// PostgreSQL's processes change into the data directory inside it. They get
    /// SIGQUIT (PostgreSQL's immediate shutdown, which also frees shared memory),
    /// then SIGKILL after two seconds; then the directory goes. The POSIX shared
    /// memory segments those processes had mapped (`/dev/shm/PostgreSQL.*`, read from
    /// `/proc/<pid>/maps` before each signal) go too: an `initdb` backend stopped that
    /// way cannot remove its own. Before each signal the processes are stopped
    /// (SIGSTOP) and read then, their open files as well as their maps (a segment is
    /// open, not yet mapped, while it is sized). The System V interlock segments those
    /// processes made go too, once nothing has them attached. (The POSIX segments of
    /// an `initdb` run through `InitdbShim` are files in the data directory; the
    /// watchdog's part is for an `initdb` run without it. docs/provisioning.md, "What a
    /// killed initdb can leave".)
    static let script = #"""
        trap '' INT TERM HUP PIPE QUIT
        cd / || exit 1
        dir=
        clean=
        while IFS= read -r line; do
          case $line in
            "dir "*) dir=${line#dir } ;;
            clean) clean=1 ;;
          esac
        done
        [ -n "$dir" ] || exit 0
        # pgwarden reaped the server and removed the directory itself.
        if [ -n "$clean" ] && [ ! -e "$dir" ]; then exit 0; fi
        if [ ! -d /proc/self ] && [ -r "$dir/data/postmaster.pid" ]; then
          # No /proc (macOS): stop the postmaster named in its pid file.
          read -r postmaster < "$dir/data/postmaster.pid" && kill -QUIT "$postmaster" 2>/dev/null && sleep 1
        fi
        working_in_dir() {
          ls -l /proc/[0-9]*/cwd 2>/dev/null | while IFS= read -r entry; do
            target=${entry#* -> }
            case $target in
              "$dir"|"$dir"/*) entry=${entry%/cwd -> *}; echo "${entry##*/}" ;;
            esac
          done
        }
        # A segment is open (between its shm_open and its mmap) or mapped.
        segments_of() {
          for pid in "$@"; do
            while IFS= read -r mapping; do
              case $mapping in
                *" /dev/shm/PostgreSQL."*) echo "/dev/shm/PostgreSQL.${mapping##*/dev/shm/PostgreSQL.}" ;;
              esac
            done < "/proc/$pid/maps" 2>/dev/null
            ls -l "/proc/$pid/fd" 2>/dev/null | while IFS= read -r entry; do
              case $entry in
                *" -> /dev/shm/PostgreSQL."*) echo "/dev/shm/PostgreSQL.${entry##*/dev/shm/PostgreSQL.}" ;;
              esac
            done
          done
        }
        # Stops (SIGSTOP) every process working in the directory, again until no new
        # one appears, and names them in $frozen: a stopped process can neither make a
        # segment after its maps were read nor start another process.
        freeze() {
          frozen=
          while :; do
            new=
            for pid in $(working_in_dir); do
              case " $frozen " in *" $pid "*) ;; *) new="$new $pid" ;; esac
            done
            [ -n "$new" ] || break
            kill -STOP $new 2>/dev/null
            frozen="$frozen $new"
          done
        }
        # The System V segments (PostgreSQL's 56-byte interlock) that a process
        # stopped here made, once no process has them attached and their maker is gone
        # or a zombie (a killed initdb backend whose parent never reaped it): garbage,
        # as PostgreSQL itself judges a segment whose maker is dead.
        # /proc/sysvipc/shm: key shmid perms size cpid lpid nattch ...
        remove_sysv_of_stopped() {
          [ -r /proc/sysvipc/shm ] && command -v ipcrm >/dev/null 2>&1 || return 0
          while read -r key shmid perms size cpid lpid nattch rest; do
            [ "$nattch" = 0 ] || continue
            case " $stopped " in *" $cpid "*) ;; *) continue ;; esac
            if read -r stat < "/proc/$cpid/stat" 2>/dev/null; then
              state=${stat##*) }
              [ "${state%% *}" = Z ] || continue
            fi
            ipcrm -m "$shmid" 2>/dev/null
          done < /proc/sysvipc/shm
        }
        segments=
        stopped=
        tries=0
        while :; do
          pids=$(working_in_dir)
          if [ -z "$pids" ]; then
            rm -rf "$dir"
            [ -z "$segments" ] || rm -f $segments
            [ -z "$stopped" ] || remove_sysv_of_stopped
            [ -e "$dir" ] || break
          elif [ $tries -eq 0 ]; then
            freeze
            stopped="$stopped $frozen"
            segments="$segments $(segments_of $frozen)"
            kill -QUIT $frozen 2>/dev/null
            kill -CONT $frozen 2>/dev/null
          elif [ $tries -ge 20 ]; then
            freeze
            stopped="$stopped $frozen"
            segments="$segments $(segments_of $frozen)"
            kill -KILL $frozen 2>/dev/null
          else
            segments="$segments $(segments_of $pids)"
          fi
          tries=$((tries + 1))
          [ $tries -le 600 ] || exit 1
          sleep 0.1
        done
        """#

    private init(pid: pid_t, channel: Int32) {
        self.pid = pid
        self.channel = channel
    }

    /// Starts a watchdog with `posix_spawn`: its signal mask and dispositions reset,
    /// the pipe's read end as its input, and no other descriptor of ours (another
    /// thread's child-to-be may hold a pipe or socket whose closing it waits for).
    static func start() throws -> ClusterWatchdog {
        let ends = try closeOnExecPipe()
        defer { close(ends.read) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        closeEverythingElse(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let words: [String] = ["/bin/sh", "-c", script, "pgwarden-watchdog"]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { word in strdup(word) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ)
        guard status == 0 else {
            close(ends.write)
            throw failure("starting /bin/sh", status)
        }
        return ClusterWatchdog(pid: pid, channel: ends.write)
    }

    /// A pipe whose ends are close-on-exec from the start (`pipe2`, looked up at run
    /// time as Swift does not import it), so no other thread's child can inherit them.
    private static func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        var ends: [Int32] = [-1, -1]
        if let symbol = dlsym(nil, "pipe2") {
            let pipe2 = unsafeBitCast(symbol, to: Pipe2.self)
            guard pipe2(&ends, O_CLOEXEC) == 0 else { throw failure("creating its pipe", errno) }
        } else {
            guard pipe(&ends) == 0 else { throw failure("creating its pipe", errno) }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    /// Closes every descriptor above 2 in the child: `posix_spawn_file_actions_addclosefrom_np`
    /// (glibc 2.34+, looked up at run time), else each descriptor open now.
    private static func closeEverythingElse(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 && fcntl(descriptor, F_GETFD) >= 0 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    private static func failure(_ step: String, _ code: Int32) -> ProvisioningError {
        .serverFailed(step: "the cleanup watchdog: \(step)", log: String(cString: strerror(code)))
    }

    /// Tells the watchdog which directory to remove (before it exists).
    func watch(directory path: String) throws {
        lock.lock()
        defer { lock.unlock() }
        let line = Array("dir \(path)\n".utf8)
        var written = 0
        while written < line.count {
            let count = line[written...].withUnsafeBytes { write(channel, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Self.failure("telling it about \(path)", errno) }
            written += count
        }
    }

    /// Closes the pipe: the watchdog cleans up whatever is left and exits. Waits for
    /// it, so nothing of the run outlives this call. Safe to call more than once.
    ///
    /// `clean`: the caller has seen the server end (reaped; PostgreSQL's postmaster
    /// ends only after all its children) and removed the directory, so the watchdog
    /// may skip its scan of every process's working directory (about 50 to 150 ms of
    /// shell work on each `dev`). It still scans when the directory exists.
    func finish(clean: Bool = false) {
        lock.lock()
        let first = !closed
        closed = true
        if first && clean {
            let line = Array("clean\n".utf8)
            _ = line.withUnsafeBytes { write(channel, $0.baseAddress, $0.count) }
        }
        lock.unlock()
        guard first else { return }
        close(channel)
        // Normally it is done at once (nothing is left for it); never wait forever.
        // Polled from 0.5 ms up to 10 ms (about 5 s in all): a watchdog with nothing
        // to do ends within a millisecond or two.
        var status: Int32 = 0
        var pause: useconds_t = 500
        var waited: useconds_t = 0
        while waited < 5_000_000 {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { return }
            usleep(pause)
            waited += pause
            pause = min(pause * 2, 10_000)
        }
    }
}
