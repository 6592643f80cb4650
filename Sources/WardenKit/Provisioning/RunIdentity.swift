import Foundation

/// Who the server programs run as: the caller, or, when the caller is root, an
/// unprivileged OS user (PostgreSQL refuses to run as root).
struct RunIdentity {
    /// nil when running as the caller.
    let user: (name: String, uid: uid_t, gid: gid_t)?

    static func current() throws -> RunIdentity {
        guard geteuid() == 0 else { return RunIdentity(user: nil) }
        let name = ProcessInfo.processInfo.environment["PGWARDEN_PG_USER"] ?? "postgres"
        guard let entry = getpwnam(name) else { throw ProvisioningError.noUnprivilegedUser(name) }
        return RunIdentity(user: (name, entry.pointee.pw_uid, entry.pointee.pw_gid))
    }

    /// The program and arguments that run `program` as this identity. `setpriv`
    /// execs in place (no extra process), so signals reach the program directly.
    func command(_ program: String, _ arguments: [String]) -> (String, [String]) {
        guard let user else { return (program, arguments) }
        return (
            Self.setpriv,
            ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--", program] + arguments
        )
    }

    /// Gives the directory to the server's user.
    func handOver(_ path: String) throws {
        guard let user else { return }
        guard chown(path, user.uid, user.gid) == 0 else {
            throw ProvisioningError.serverFailed(step: "chown \(path) to \(user.name)", log: String(cString: strerror(errno)))
        }
    }

    private static var setpriv: String {
        ["/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "setpriv"
    }
}
