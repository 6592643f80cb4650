/// Why an ephemeral server or the compatibility layer could not be provided.
public enum ProvisioningError: WardenError {
    /// `initdb` and `postgres` were found nowhere.
    case binariesMissing(searched: [String])
    /// No unprivileged OS user to run the server as, while running as root.
    case noUnprivilegedUser(String)
    /// A server program failed; `log` is the tail of its output.
    case serverFailed(step: String, log: String)
    /// The server did not accept connections in time.
    case startTimedOut(seconds: Double, log: String)
    /// The folder for the server's directory is on a file system mounted `noexec`.
    case programsNotAllowed(directory: String)

    public var category: ErrorCategory { .unavailable }

    public var description: String {
        switch self {
        case .binariesMissing:
            return "PostgreSQL server programs (initdb, postgres) not found; "
                + "install them with: apt-get install postgresql (or set PGWARDEN_PG_BINDIR)"
        case .noUnprivilegedUser(let name):
            return "PostgreSQL refuses to run as root, and there is no OS user '\(name)' to run it as; "
                + "create one (apt-get install postgresql does) or set PGWARDEN_PG_USER"
        case .serverFailed(let step, let log):
            return "\(step) failed\(log.isEmpty ? "" : ":\n\(log)")"
        case .programsNotAllowed(let directory):
            return "\(directory) is on a file system mounted noexec, and the ephemeral server runs its copies of "
                + "postgres and initdb from a directory there; set PGWARDEN_TMPDIR to a folder where programs may run"
        case .startTimedOut(let seconds, let log):
            return "the ephemeral PostgreSQL server did not accept connections within \(seconds) s"
                + (log.isEmpty ? "" : ":\n\(log)")
        }
    }
}
