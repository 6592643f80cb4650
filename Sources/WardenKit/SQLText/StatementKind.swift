/// What a statement does to the session it runs in, judged from its leading keywords
/// (as the statement splitter tokenizes them: comments and quoted text never count).
///
/// pgwarden runs SQL it did not write (migrations, seeds, plan SQL) inside
/// transactions of its own; this says which statements would end or change them.
package enum StatementKind: Equatable, Sendable {
    /// `BEGIN`, `START TRANSACTION`.
    case begin
    /// `COMMIT`, `END`, `COMMIT AND CHAIN`.
    case commit
    /// `ROLLBACK`, `ABORT` (not `ROLLBACK TO SAVEPOINT`).
    case rollback
    /// `PREPARE TRANSACTION`, `COMMIT PREPARED`, `ROLLBACK PREPARED`.
    case twoPhase
    /// `SAVEPOINT`, `RELEASE [SAVEPOINT]`, `ROLLBACK TO [SAVEPOINT]`.
    case savepoint
    /// `SET [SESSION|LOCAL] ROLE`, `RESET ROLE`, `SET|RESET SESSION AUTHORIZATION`.
    case roleChange
    /// `RESET ALL`, `DISCARD ...`.
    case sessionReset
    /// `SET name ...` or `SET SESSION name ...`: a setting that outlives the transaction.
    case sessionSetting
    /// `SET LOCAL name ...`, `SET TRANSACTION ...`, `SET CONSTRAINTS ...`.
    case transactionSetting
    /// `CALL procedure(...)`: a procedure may commit.
    case call
    /// `COPY ... FROM STDIN`.
    case copyFromStdin
    /// `CREATE EVENT TRIGGER`: PostgreSQL lets only a superuser run it; Supabase lets
    /// `postgres` (supautils), which the twin mirrors (`EventTriggerLift`).
    case eventTriggerCreation
    /// Anything else.
    case other

    package init(keywords words: [String]) {
        let first = words.first ?? ""
        let second = words.count > 1 ? words[1] : ""
        let third = words.count > 2 ? words[2] : ""
        switch first {
        case "begin": self = .begin
        case "start": self = second == "transaction" ? .begin : .other
        case "commit": self = second == "prepared" ? .twoPhase : .commit
        case "end": self = .commit
        case "abort": self = .rollback
        case "rollback":
            switch second {
            case "to": self = .savepoint
            case "prepared": self = .twoPhase
            default: self = .rollback
            }
        case "prepare": self = second == "transaction" ? .twoPhase : .other
        case "savepoint", "release": self = .savepoint
        case "discard": self = .sessionReset
        case "reset":
            switch second {
            case "all": self = .sessionReset
            case "role": self = .roleChange
            case "session": self = third == "authorization" ? .roleChange : .sessionSetting
            default: self = .sessionSetting
            }
        case "set": self = Self.classifySet(Array(words.dropFirst()))
        case "call": self = .call
        case "create": self = second == "event" && third == "trigger" ? .eventTriggerCreation : .other
        case "copy": self = words.contains("from") && words.contains("stdin") ? .copyFromStdin : .other
        default: self = .other
        }
    }

    private static func classifySet(_ words: [String]) -> StatementKind {
        let scope = words.first ?? ""
        let rest = scope == "local" || scope == "session" ? Array(words.dropFirst()) : words
        let name = rest.first ?? ""
        let sessionAuthorization = (scope == "session" && name == "authorization")
            || (name == "session" && rest.dropFirst().first == "authorization")
        if name == "role" || sessionAuthorization {
            return .roleChange
        }
        if scope == "local" || name == "transaction" || name == "constraints" { return .transactionSetting }
        return .sessionSetting
    }

    /// Ends or replaces the transaction it runs in.
    package var endsTransaction: Bool { [.begin, .commit, .rollback, .twoPhase].contains(self) }

    /// How to name the kind in a message.
    package var label: String {
        switch self {
        case .begin: return "BEGIN"
        case .commit: return "COMMIT"
        case .rollback: return "ROLLBACK"
        case .twoPhase: return "two-phase commit"
        case .savepoint: return "SAVEPOINT/RELEASE"
        case .roleChange: return "a role change (SET ROLE, SESSION AUTHORIZATION)"
        case .sessionReset: return "RESET ALL/DISCARD"
        case .sessionSetting: return "SET without LOCAL"
        case .transactionSetting: return "SET LOCAL"
        case .call: return "CALL"
        case .copyFromStdin: return "COPY FROM STDIN"
        case .eventTriggerCreation: return "CREATE EVENT TRIGGER"
        case .other: return "a statement"
        }
    }
}
