/// Why the migrator refused to start, or stopped, other than a failing SQL statement
/// (that is a `MigrationSQLFailure`). A refusal changes nothing.
public enum MigrationRefusal: Error, CustomStringConvertible, Sendable {
    /// Applied migrations whose file changed or disappeared; `up` refuses (exit 3)
    /// unless `--allow-drift`.
    case drift([MigrationStatusEntry])
    /// Migrations marked failed; nothing runs until each is resolved (exit 3).
    case unresolvedFailures([MigrationStatusEntry])
    /// `down` would have to roll back a migration whose file is gone (exit 3).
    case missingFile(version: String, name: String)
    /// `down` would have to roll back a migration without a down section (exit 65).
    case irreversible(file: String, reason: String)
    /// Another run held the lock longer than `--lock-timeout` (exit 75).
    case lockTimeout(seconds: Int)
    /// `resolve` was asked about a version that is not marked failed.
    case notFailed(version: String, state: String)
    /// A section ended the migration's transaction itself (COMMIT or ROLLBACK); what it
    /// committed stays, so the migration is marked failed (exit 1).
    case transactionEnded(file: String, version: String, direction: MigrationDirection)

    public var description: String {
        switch self {
        case .drift(let entries):
            let shown = entries.prefix(3).map(Self.describeDrift).joined(separator: "; ")
            let more = entries.count > 3 ? "; and \(entries.count - 3) more (see `pgwarden status`)" : ""
            return "refusing to migrate: \(shown)\(more). Restore the files, or run with --allow-drift "
                + "to apply pending migrations anyway"
        case .unresolvedFailures(let entries):
            let names = entries.map { "\($0.version) \($0.name)" }.joined(separator: ", ")
            let first = entries.first?.version ?? "VERSION"
            return "refusing to migrate: migration \(names) is marked failed (it ran without a transaction "
                + "and did not finish, or was interrupted). Check what it changed, then run "
                + "`pgwarden resolve \(first) --applied` or `pgwarden resolve \(first) --rolled-back`"
        case .missingFile(let version, let name):
            return "cannot roll back \(version) \(name): its file is missing from the migrations folder; nothing was changed"
        case .irreversible(let file, let reason):
            return "\(file): cannot be rolled back: \(reason); nothing was changed"
        case .lockTimeout(let seconds):
            return "another pgwarden run still holds this database's migration lock after \(seconds) s; "
                + "try again later, or raise --lock-timeout (0 waits forever)"
        case .notFailed(let version, let state):
            let next: String
            switch state {
            case MigrationState.pending.rawValue:
                next = "it was never applied (or was rolled back), so there is nothing to settle; `pgwarden up` applies it"
            case MigrationState.applied.rawValue:
                next = "it finished, so there is nothing to settle; `pgwarden down` rolls it back"
            default:
                next = "there is nothing to settle"
            }
            return "migration \(version) is \(state), not failed: \(next). "
                + "`pgwarden resolve` only settles migrations that `pgwarden status` shows as failed"
        case .transactionEnded(let file, let version, let direction):
            return "\(file): the \(direction.rawValue) section ended its own transaction (COMMIT or ROLLBACK), "
                + "so part of it may be committed; migration \(version) is marked failed. Remove the COMMIT/ROLLBACK "
                + "or mark the section `-- migrate:\(direction.rawValue) transaction:false`, check the database, then "
                + "run `pgwarden resolve \(version) --applied` or `--rolled-back`"
        }
    }

    static func describeDrift(_ entry: MigrationStatusEntry) -> String {
        switch entry.state {
        case .modified: return "\(entry.file ?? entry.version) was modified after it was applied"
        case .missing: return "applied migration \(entry.version) \(entry.name) has no file"
        default: return "\(entry.version) \(entry.name) is \(entry.state.rawValue)"
        }
    }
}
