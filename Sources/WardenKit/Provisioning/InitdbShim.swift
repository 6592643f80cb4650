import Foundation

/// `initdb` made to run its backends with their dynamic shared memory in the data
/// directory (`dynamic_shared_memory_type=mmap`), as pgwarden's server runs.
///
/// PostgreSQL 15's `initdb` has no option for a backend setting (`-c` came in 16), and
/// its bootstrap and single-user backends take the default, POSIX segments in
/// `/dev/shm` (`PostgreSQL.<n>`, two of them): a backend killed mid-way (Ctrl-C during a
/// first `dev`) leaves them there until the machine restarts. In the data directory
/// (`pg_dynshmem/`) they go with the run's directory.
///
/// `initdb` runs the `postgres` beside its own real path (`find_other_exec`), so the
/// shim is a folder holding a copy of `initdb` and, beside it, a `postgres` script that
/// runs the server binary with `-c dynamic_shared_memory_type=mmap` after `--boot` or
/// `--single` (the first argument, where PostgreSQL requires it) and as it is for
/// anything else (`-V`, which `initdb` checks). The copy finds its `share` folder where
/// PostgreSQL was installed (its folder does not repeat the installation's layout).
enum InitdbShim {
    /// Makes `folder` (new) and returns the path of the `initdb` to run: a copy of
    /// `initdb` whose backends are `server` with the setting.
    static func make(in folder: URL, initdb: URL, server: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let copy = folder.appendingPathComponent("initdb")
        _ = try DataDirectoryCopy.copyFile(at: initdb.resolvingSymlinksInPath().path, to: copy.path, mode: 0o755, owner: nil)
        try NewFile.write(Array(script(server: server.path).utf8), to: folder.appendingPathComponent("postgres").path, mode: 0o755)
        return copy
    }

    /// The `postgres` script (POSIX sh), `server` single-quoted.
    static func script(server: String) -> String {
        let quoted = "'" + server.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        return """
            #!/bin/sh
            # pgwarden: initdb's backends keep their dynamic shared memory in the data directory.
            case "$1" in
              --boot|--single) mode=$1; shift; exec \(quoted) "$mode" -c dynamic_shared_memory_type=mmap "$@" ;;
              *) exec \(quoted) "$@" ;;
            esac

            """
    }
}
