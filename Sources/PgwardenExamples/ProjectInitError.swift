import WardenKit

/// Why `pgwarden init` (or `plan draft --output`) wrote nothing, or, for a write
/// failure, removed what it wrote.
public struct ProjectInitError: WardenError, Sendable {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The file is already there; nothing was written.
        case exists
        /// The file could not be written (the message says why).
        case cannotWrite(String)
    }

    /// The file or folder concerned.
    public let path: String
    /// Why nothing was written.
    public let reason: Reason

    /// An error about `path`.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// A file that is already there is bad input; one that cannot be written is `.cannotWrite`.
    public var category: ErrorCategory {
        reason == .exists ? .badInput : .cannotWrite
    }

    /// One line: the path, and that nothing was written (or left behind).
    public var description: String {
        switch reason {
        case .exists: return "\(path): already exists; pgwarden writes nothing over existing files (nothing was written)"
        case .cannotWrite(let why): return "\(path): cannot write (\(why)); nothing was left behind"
        }
    }
}
