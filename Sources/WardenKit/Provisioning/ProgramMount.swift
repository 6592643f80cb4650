import Foundation

/// Whether a file system lets programs run from it: not mounted `noexec`, as hardened
/// hosts mount `/dev/shm` (and sometimes `/tmp`). pgwarden's ephemeral server runs
/// copies of `postgres` and `initdb` from the run's directory (`PrivateInstallation`,
/// `InitdbShim`), so that directory must be on such a file system.
enum ProgramMount {
    /// False when `path`'s file system is mounted `noexec` (`statvfs`'s `ST_NOEXEC`,
    /// Linux) or cannot be read.
    static func allowsPrograms(at path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        #if os(Linux)
            // ST_NOEXEC from glibc's <bits/statvfs.h> (an enum member Swift does not import).
            let noexec: UInt = 8
            return info.f_flag & noexec == 0
        #else
            return true  // macOS's statvfs has no such flag; its temporary folders allow programs
        #endif
    }
}
