/// Why `pgwarden init` (or `plan draft --output`) wrote nothing, or, for a write
/// failure, removed what it wrote.
package struct ProjectInitError: WardenError, Sendable {
    package enum Reason: Sendable, Equatable {
        /// The file is already there; nothing was written.
        case exists
        /// The file could not be written (the message says why).
        case cannotWrite(String)
    }

    package let path: String
    package let reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// A file that is already there is bad input; one that cannot be written is `.cannotWrite`.
    package var category: ErrorCategory {
        reason == .exists ? .badInput : .cannotWrite
    }

    package var description: String {
        switch reason {
        case .exists: return "\(path): already exists; pgwarden writes nothing over existing files (nothing was written)"
        case .cannotWrite(let why): return "\(path): cannot write (\(why)); nothing was left behind"
        }
    }
}
