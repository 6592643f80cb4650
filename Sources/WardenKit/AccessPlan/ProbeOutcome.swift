import WardenPostgres

/// What happened when a persona tried something.
enum ProbeOutcome: Equatable {
    /// The statement ran and touched this many rows.
    case rows(Int)
    /// Access control let it through but a constraint stopped it (SQLSTATE class 23:
    /// privileges and row-level security are checked before constraints).
    case constraint(sqlState: String, message: String)
    /// Permission denied or a policy violation (42501).
    case denied(message: String)
    /// Any other error: not an access decision, so never what the plan expects.
    case error(sqlState: String, message: String)

    init(_ error: PGError) {
        let state = error.sqlState?.rawValue ?? "?????"
        if error.sqlState == .insufficientPrivilege {
            self = .denied(message: error.message)
        } else if error.sqlState?.errorClass == "23" {
            self = .constraint(sqlState: state, message: error.message)
        } else {
            self = .error(sqlState: state, message: error.message)
        }
    }

    /// Runs a write and classifies what came of it. A limit running out (a lock wait,
    /// a long statement) is no access decision: it stops the run.
    static func of(_ work: () throws -> QueryResult) throws -> ProbeOutcome {
        do {
            return .rows(try work().affectedRows ?? 0)
        } catch let error as PGError where error.kind == .server && !AccessPlanLimits.isLimit(error) {
            return ProbeOutcome(error)
        }
    }

    /// Whether access control let the write through: it wrote rows, or a constraint
    /// stopped it after row security had passed it.
    var letThrough: Bool {
        switch self {
        case .rows(let count): count > 0
        case .constraint: true
        case .denied, .error: false
        }
    }

    /// In the plan's words.
    var summary: String {
        switch self {
        case .rows(let count): return count == 1 ? "1 row" : "\(count) rows"
        case .constraint(let state, let message): return "allowed, then stopped by a constraint (\(state): \(message))"
        case .denied(let message): return "denied (42501: \(message))"
        case .error(let state, let message): return "error \(state): \(message)" + (Self.hints[state] ?? "")
        }
    }

    /// What an error usually means in a Data API request, after its message.
    private static let hints: [String: String] = [
        // Each such request recursed until the stack ran out (a third of a second each).
        "54001": " (a policy calls a function that reads a table whose policies call it again: make that function "
            + "security definer, or read the table without it)",
    ]
}
