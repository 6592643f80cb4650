/// What kind of failure an error is: the one fact a caller needs to decide what to do
/// next (the command line derives its exit status from it, in one place).
public enum ErrorCategory: String, Sendable, Equatable, CaseIterable {
    /// The input is wrong (a migration file, a plan, a test file, an unknown version);
    /// nothing was changed.
    case badInput
    /// The database's state forbids the operation (history drift, an unresolved failed
    /// migration, a migration file that is missing); nothing was changed.
    case refused
    /// The server rejected SQL, or what ran did not hold (the run says what).
    case sqlFailed
    /// A server, a program or an extension that is needed is not there.
    case unavailable
    /// A lock was not granted in time (another run's, or a session's a migration waited on).
    case lockTimeout
    /// The running statement was cancelled (a signal, or a cancel request).
    case interrupted
    /// The API was called in a state it does not accept (e.g. migrations on a
    /// connection inside a transaction): a programming error of the caller.
    case misuse
    /// A setting given to pgwarden is malformed (e.g. a connection string).
    case invalidSettings
    /// An output file cannot be created or written.
    case cannotWrite
}

/// An error the library throws: every one has a category and a readable description
/// (which never holds a secret).
public protocol WardenError: Error, CustomStringConvertible {
    /// What kind of failure this is.
    var category: ErrorCategory { get }
}

extension Error {
    /// The error's category; `.sqlFailed` for an error that is not a `WardenError`.
    public var wardenCategory: ErrorCategory {
        (self as? any WardenError)?.category ?? .sqlFailed
    }
}
