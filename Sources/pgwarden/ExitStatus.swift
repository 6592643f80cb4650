import ArgumentParser

/// pgwarden's documented exit codes (see `pgwarden --help`).
enum ExitStatus {
    static let failure = ExitCode(1)
    static let pending = ExitCode(2)
    static let drift = ExitCode(3)
    static let usage = ExitCode(64)
    static let badInput = ExitCode(65)
    static let unavailable = ExitCode(69)
    /// An output file (`test --output`) cannot be created or written.
    static let cannotCreate = ExitCode(73)
    static let lockTimeout = ExitCode(75)
}
