/// Why the migrator refused to start, or stopped, other than a failing SQL statement
/// (that is a `MigrationSQLFailure`). A refusal changes nothing.
public enum MigrationRefusal: WardenError, Sendable {
    /// Applied migrations whose file changed or disappeared; `up` refuses unless
    /// drift is allowed.
    case drift([MigrationStatusEntry])
    /// Migrations marked failed; nothing runs until each is resolved (`Migrator.resolve`).
    case unresolvedFailures([MigrationStatusEntry])
    /// `down` would have to roll back a migration whose file is gone.
    case missingFile(version: String, name: String)
    /// `down` would have to roll back a migration without a down section.
    case irreversible(file: String, reason: String)
    /// Another run held the lock longer than the run was willing to wait.
    case lockTimeout(waited: Duration)
    /// `resolve` was asked about a version that is not marked failed.
    case notFailed(version: String, state: MigrationState)
    /// A section ended the migration's transaction itself (COMMIT or ROLLBACK); what it
    /// committed stays, so the migration is marked failed.
    case transactionEnded(file: String, version: String, direction: MigrationDirection)

    /// The history's state refuses (`.refused`); a request that cannot be met is
    /// bad input; a lock not granted is a lock timeout.
    public var category: ErrorCategory {
        switch self {
        case .drift, .unresolvedFailures, .missingFile: return .refused
        case .irreversible, .notFailed: return .badInput
        case .lockTimeout: return .lockTimeout
        case .transactionEnded: return .sqlFailed
        }
    }

    public var description: String {
        switch self {
        case .drift(let entries):
            let shown = entries.prefix(3).map(Self.describeDrift).joined(separator: "; ")
            let more = entries.count > 3 ? "; and \(entries.count - 3) more" : ""
            return "refusing to migrate: \(shown)\(more). Restore the files, or allow drift "
                + "to apply pending migrations anyway"
        case .unresolvedFailures(let entries):
            let names = entries.map { "\($0.version) \($0.name)" }.joined(separator: ", ")
            return "refusing to migrate: migration \(names) is marked failed (it ran without a transaction "
                + "and did not finish, or was interrupted). Check what it changed, then resolve it as applied "
                + "or as rolled back"
        case .missingFile(let version, let name):
            return "cannot roll back \(version) \(name): its file is missing from the migrations folder; nothing was changed"
        case .irreversible(let file, let reason):
            return "\(file): cannot be rolled back: \(reason); nothing was changed"
        case .lockTimeout(let waited):
            return "another pgwarden run still holds this database's migration lock after "
                + "\(MigrationLockWaitFailure.seconds(waited)); try again later, or wait longer"
        case .notFailed(let version, let state):
            let next: String
            switch state {
            case .pending:
                next = "it was never applied (or was rolled back), so there is nothing to settle"
            case .applied:
                next = "it finished, so there is nothing to settle"
            default:
                next = "there is nothing to settle"
            }
            return "migration \(version) is \(state), not failed: \(next). "
                + "Only migrations whose status is failed can be resolved"
        case .transactionEnded(let file, let version, let direction):
            return "\(file): the \(direction.rawValue) section ended its own transaction (COMMIT or ROLLBACK), "
                + "so part of it may be committed; migration \(version) is marked failed. Remove the COMMIT/ROLLBACK "
                + "or mark the section `-- migrate:\(direction.rawValue) transaction:false`, check the database, then "
                + "resolve it as applied or as rolled back"
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
