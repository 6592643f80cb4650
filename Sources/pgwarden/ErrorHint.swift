import WardenKit

/// The command line's advice for a library error: which command or flag to use next.
/// The library's messages describe the situation only; `ErrorReporter` appends this.
enum ErrorHint {
    /// The hint, and whether it goes on the message's own line (one-line errors stay one
    /// line) or on a `hint:` line of its own (multi-line reports).
    static func hint(for error: Error) -> (text: String, inline: Bool)? {
        switch error {
        case let error as MigrationRefusal: return refusal(error).map { ($0, true) }
        case let error as MigrationInputError: return input(error).map { ($0, true) }
        case let error as MigrationSQLFailure: return failure(error).map { ($0, false) }
        case let error as MigrationLockWaitFailure:
            let wait = "raise --ddl-lock-timeout or --retries, or run again when the blocking sessions are done"
            return ((failure(error.failure).map { "\($0)\nhint: " } ?? "") + wait, false)
        default: return nil
        }
    }

    static func refusal(_ error: MigrationRefusal) -> String? {
        switch error {
        case .drift:
            return "run with --allow-drift (`pgwarden status` lists every migration)"
        case .unresolvedFailures(let entries):
            return resolve(entries.first?.version ?? "VERSION")
        case .lockTimeout:
            return "--lock-timeout sets the wait (0 waits forever)"
        case .notFailed(_, let state):
            let next: String
            switch state {
            case .pending: next = "`pgwarden up` applies it; "
            case .applied: next = "`pgwarden down` rolls it back; "
            default: next = ""
            }
            return next + "`pgwarden status` shows which migrations are failed"
        case .transactionEnded(_, let version, _):
            return resolve(version)
        case .missingFile, .irreversible:
            return nil
        }
    }

    static func input(_ error: MigrationInputError) -> String? {
        switch error {
        case .folderMissing: return "create it with `pgwarden new NAME`, or pass --migrations DIR"
        case .unknownVersion: return "see `pgwarden status`"
        default: return nil
        }
    }

    static func failure(_ error: MigrationSQLFailure) -> String? {
        let version = error.file.version.text
        switch error.outcome {
        case .markedFailed: return resolve(version)
        case .unknown: return "when the server is back, run `pgwarden status`"
        case .rolledBack, .committedDespiteLostConnection: return nil
        }
    }

    /// The command to run next for a line of `pgwarden status`.
    static func statusAdvice(_ entry: MigrationStatusEntry) -> String? {
        entry.state == .failed ? resolve(entry.version) : nil
    }

    /// The two ways to settle a failed migration.
    static func resolve(_ version: String) -> String {
        "run `pgwarden resolve \(version) --applied` or `pgwarden resolve \(version) --rolled-back`"
    }
}
