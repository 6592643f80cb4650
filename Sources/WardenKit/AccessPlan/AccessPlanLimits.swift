import Foundation
import WardenPostgres

/// How long an access-plan run may wait, so that `test` never hangs behind another
/// session's lock (a migration, `VACUUM FULL`, `LOCK TABLE`) while it holds the plan's
/// uncommitted users and its own locks. Both are set `LOCAL` in the run's transaction.
public struct AccessPlanLimits: Sendable, Equatable {
    /// The longest any statement of the run waits for a lock (`lock_timeout`).
    public var lockTimeout: Duration
    /// The longest any statement of the run may take (`statement_timeout`); a persona
    /// role's own, shorter timeout still applies to its probes, as PostgREST applies it.
    public var statementTimeout: Duration

    /// Defaults: a 10 s lock wait (above Supabase's 8 s `lock_timeout` for API roles, which
    /// probes keep), a 30 s statement.
    public init(lockTimeout: Duration = .seconds(10), statementTimeout: Duration = .seconds(30)) {
        self.lockTimeout = lockTimeout
        self.statementTimeout = statementTimeout
    }

    /// The statement that sets both for the rest of the transaction, with `others` in
    /// the same statement (the runner sends it in its first round trip).
    func settingSQL(with others: [(name: String, value: String)] = []) -> SQL {
        var statement: SQL = """
            select set_config('lock_timeout', \(max(1, lockTimeout.wholeMilliseconds))::text, true),
                   set_config('statement_timeout', \(max(1, statementTimeout.wholeMilliseconds))::text, true)
            """
        for setting in others { statement.append(", set_config(\(setting.name), \(setting.value), true)") }
        return statement
    }

    /// A persona role's own settings (PostgREST applies them per request), with
    /// `statement_timeout` and `lock_timeout` no longer than these limits: a role's
    /// shorter timeout holds, a longer one (or 0, none) is cut to the run's.
    func capped(_ settings: [(name: String, value: String)]) -> [(name: String, value: String)] {
        settings.map { setting in
            let limit: Duration
            switch setting.name {
            case "statement_timeout": limit = statementTimeout
            case "lock_timeout": limit = lockTimeout
            default: return setting
            }
            let cap = max(1, limit.wholeMilliseconds)
            guard let milliseconds = Self.milliseconds(setting.value), milliseconds > 0, milliseconds <= cap else {
                return (setting.name, String(cap))
            }
            return setting
        }
    }

    /// The persona roles whose own `statement_timeout` (in `requests`, already
    /// `capped`) is shorter than the run's: role -> the setting (`ProbeBatch.roleStatementTimeouts`).
    func shorterStatementTimeouts(_ requests: [PersonaRequest]) -> [String: String] {
        var found: [String: String] = [:]
        for request in requests {
            guard let value = request.roleSettings.first(where: { $0.name == "statement_timeout" })?.value,
                  let milliseconds = Self.milliseconds(value), milliseconds < statementTimeout.wholeMilliseconds
            else { continue }
            found[request.role] = value
        }
        return found
    }

    /// A time setting's value in milliseconds (`8s`, `500`, `2min`), as PostgreSQL
    /// reads it (no unit: milliseconds); nil when it is not one.
    static func milliseconds(_ value: String) -> Int? {
        let text = value.trimmingCharacters(in: .whitespaces).lowercased()
        let number = text.prefix { $0.isNumber || $0 == "." }
        guard let amount = Double(number) else { return nil }
        let unit = text.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        let factor: Double? = ["": 1, "us": 0.001, "ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000, "d": 86_400_000][unit]
        return factor.map { Int((amount * $0).rounded()) }
    }

    /// Whether an error is one of these limits running out (not an access decision).
    static func isLimit(_ error: PGError) -> Bool {
        error.sqlState == .lockNotAvailable || (error.sqlState == .queryCanceled && error.message.contains("statement timeout"))
    }
}

/// An access-plan run stopped because a limit ran out; everything was rolled back.
public struct AccessPlanTimeout: WardenError {
    /// What the run was doing (`probing public.saved`, `check 'x'`, ...).
    public let subject: String
    /// True for a lock wait (`lock_timeout`), false for a long statement (`statement_timeout`).
    public let lockWait: Bool
    public let limit: Duration
    /// The sessions seen blocking the run while it waited (empty: none seen).
    public let blocking: [BlockingSession]
    /// The server's message.
    public let message: String

    /// A run past its limits counts as a lock timeout.
    public var category: ErrorCategory { .lockTimeout }

    public var description: String {
        let what = lockWait
            ? "waited more than \(limit.seconds) s for a lock while \(subject) (lock timeout)"
            : "a statement ran longer than \(limit.seconds) s while \(subject) (statement timeout)"
        var text = "the access-plan run stopped: \(lockWait ? "it " : "")\(what); nothing was changed, the run was rolled back"
        if !blocking.isEmpty {
            text += "\nblocked by " + blocking.map(\.description).joined(separator: "\nblocked by ")
        }
        return text
    }
}

extension Duration {
    /// Whole seconds, or a decimal for less (`0.5`).
    fileprivate var seconds: String {
        let milliseconds = wholeMilliseconds
        return milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(Double(milliseconds) / 1000)
    }
}
