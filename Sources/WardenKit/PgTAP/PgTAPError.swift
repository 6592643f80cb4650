/// Why a pgTAP suite cannot run at all (as opposed to a test that fails): bad input
/// (exit 65) or a server that lacks pgTAP. A test file that cannot be read or is
/// refused (`.unreadable`, `.refused`, `.include`) fails on its own instead: the suite
/// reports it as that file's failure, and the other files run.
public enum PgTAPError: WardenError, Sendable, Equatable {
    /// The tests folder does not exist or cannot be read.
    case folder(path: String, reason: String)
    /// A test file cannot be read, or is not UTF-8.
    case unreadable(file: String, reason: String)
    /// A statement pgwarden will not run, with where it is.
    case refused(file: String, line: Int, reason: String)
    /// A psql include (`\i`, `\ir`) pgwarden cannot follow: a missing or unreadable
    /// file, or one already being included; with the include's file and line.
    case include(file: String, line: Int, reason: String)
    /// The server has no pgTAP to install: which Debian package provides it.
    case notInstalled(package: String)
    /// pgTAP is available but the role may not create it.
    case cannotCreate(role: String, message: String)
    /// A file ended pgwarden's transaction or savepoint (it must never happen: every
    /// statement is checked before it is sent).
    case sealBroken(file: String, line: Int, what: String)

    /// A server without pgTAP is `.unavailable`; mistakes in the test files are bad
    /// input; a test that broke the run's transaction failed.
    public var category: ErrorCategory {
        switch self {
        case .notInstalled, .cannotCreate: return .unavailable
        default: return isBadInput ? .badInput : .sqlFailed
        }
    }

    public var description: String {
        switch self {
        case .folder(let path, let reason): return "\(path): cannot read the tests folder (\(reason))"
        case .unreadable(let file, let reason): return "\(file): cannot read the test file (\(reason))"
        case .refused(let file, let line, let reason):
            return "\(file):\(line): \(reason)"
        case .include(let file, let line, let reason): return "\(file):\(line): \(reason)"
        case .notInstalled(let package):
            return "this server has no pgTAP, which the test files need: install it on the server "
                + "(Debian/Ubuntu: apt-get install \(package))"
        case .cannotCreate(let role, let message):
            return "pgTAP is not installed in this database and \(role) may not create it (\(message)): "
                + "run `create extension pgtap with schema extensions` once as a superuser"
        case .sealBroken(let file, let line, let what):
            return "\(file):\(line): \(what); the run was stopped and rolled back"
        }
    }

    /// The file a file-level error names (nil for the folder and the server's).
    package var file: String? {
        switch self {
        case .unreadable(let file, _), .refused(let file, _, _), .include(let file, _, _), .sealBroken(let file, _, _):
            return file
        case .folder, .notInstalled, .cannotCreate: return nil
        }
    }

    /// The line a file-level error names.
    package var line: Int? {
        switch self {
        case .refused(_, let line, _), .include(_, let line, _), .sealBroken(_, let line, _): return line
        default: return nil
        }
    }

    /// True for mistakes in the test files or folder (exit 65).
    public var isBadInput: Bool {
        switch self {
        case .folder, .unreadable, .refused, .include: return true
        case .notInstalled, .cannotCreate, .sealBroken: return false
        }
    }
}
