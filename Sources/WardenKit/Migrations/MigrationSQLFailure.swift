import Foundation
import WardenPostgres

/// A migration's SQL failed. The description is the full report: `file:line:column:`,
/// the message and SQLSTATE, the source line with a caret, DETAIL, HINT, QUERY and
/// CONTEXT, which statement it was, and what state the database is left in.
public struct MigrationSQLFailure: WardenError {
    /// What the database holds of the failed migration now.
    public enum Aftermath: Sendable, Equatable {
        /// Its transaction was rolled back: nothing of it remains.
        case rolledBack
        /// It ran without a transaction; this many of its statements are committed and
        /// the history marks it failed.
        case markedFailed(committedStatements: Int)
        /// The connection was lost while COMMIT was on its way, and the history, read
        /// on a new connection, shows that the server committed it.
        case committedDespiteLostConnection
        /// The connection was lost at COMMIT and no new connection could read the history.
        case unknown
    }

    /// Which step failed.
    public enum FailedStep: Sendable {
        case statement, commit, history
    }

    public let file: MigrationFile
    public let direction: MigrationDirection
    /// The underlying error (a `PGError` for anything the server said).
    public let underlying: Error
    public let phase: FailedStep
    /// The file offset where the text sent to the server began.
    public let sentOffset: Int
    /// Index of the failing statement in the section, when known.
    public let statementIndex: Int?
    public let outcome: Aftermath
    /// How many migrations of this run completed before this one.
    public let earlierInRun: Int

    /// The server's error, when there is one.
    public var postgresError: PGError? { underlying as? PGError }

    /// The text of the statement that failed, when it is known.
    public var failingStatementText: String? {
        guard phase == .statement, let error = postgresError, let section = file.section(direction) else { return nil }
        return failingStatement(error, section: section)?.text
    }

    public var category: ErrorCategory { .sqlFailed }

    public var description: String {
        var lines: [String]
        if let error = postgresError, let section = file.section(direction) {
            lines = serverErrorLines(error, section: section)
        } else {
            lines = ["\(file.path): \(phaseLabel)\(underlying)"]
        }
        lines.append(outcomeLine)
        return lines.joined(separator: "\n")
    }

    var phaseLabel: String {
        switch phase {
        case .statement: return ""
        case .commit: return "COMMIT failed: "
        case .history: return "recording the migration in the history failed: "
        }
    }

    func serverErrorLines(_ error: PGError, section: MigrationSection) -> [String] {
        let statement = failingStatement(error, section: section)
        let locator = SQLErrorLocator(
            file: file, section: section, sentOffset: sentOffset, statement: phase == .statement ? statement : nil,
            error: error)
        let place = phase == .statement ? locator.place() : nil
        var lines = [locator.prefix(place) + phaseLabel + error.message + (error.sqlState.map { " (SQLSTATE \($0))" } ?? "")]
        lines += locator.excerpt(place)
        if let detail = error.detail { lines.append("DETAIL: \(detail)") }
        if let hint = Self.extraHint(error, direction: direction) ?? error.hint { lines.append("HINT: \(hint)") }
        if let query = error.internalQuery { lines.append("QUERY: \(Self.oneLine(query))") }
        if let context = error.context { lines.append("CONTEXT: \(Self.oneLine(context))") }
        if phase == .statement, let where_ = locator.statementDescription(direction: direction),
            error.position == nil || section.statements.count > 1
        {
            lines.append(where_)
        }
        return lines
    }

    /// The statement that failed: the one holding the error position when there is one
    /// (a syntax error fails the whole text before any statement runs), else the one
    /// after the completed ones.
    func failingStatement(_ error: PGError, section: MigrationSection) -> SQLStatement? {
        if let position = error.position {
            let offset = sentOffset - section.startOffset + position - 1
            if let holding = section.statements.last(where: { $0.range.lowerBound <= offset }) { return holding }
        }
        guard let statementIndex, section.statements.indices.contains(statementIndex) else { return nil }
        return section.statements[statementIndex]
    }

    /// pgwarden's own hint for errors with a known remedy.
    static func extraHint(_ error: PGError, direction: MigrationDirection) -> String? {
        if error.sqlState == .activeSQLTransaction {
            return "this statement cannot run in a transaction: mark the section "
                + "`-- migrate:\(direction.rawValue) transaction:false` (it then runs one statement at a time)"
        }
        return TwinGapHint.hint(for: error) ?? SupabaseRestrictionHint.hint(for: error)
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " / ")
    }

    var outcomeLine: String {
        let version = file.version.text
        switch (outcome, direction) {
        case (.rolledBack, .up):
            return "migration \(version) was rolled back: nothing of it remains"
                + earlierSteps
        case (.rolledBack, .down):
            return "the rollback of \(version) was undone: it stays applied"
                + earlierSteps
        case (.committedDespiteLostConnection, _):
            let what = direction == .up ? "migration \(version) is applied" : "the rollback of \(version) is done"
            return "the connection was lost at COMMIT; a new connection read the history: \(what) (its COMMIT went "
                + "through). The run stopped here; run the command again for the rest" + earlierSteps
        case (.unknown, _):
            let what = direction == .up ? "migration \(version) was applied" : "the rollback of \(version) was done"
            return "the connection was lost at COMMIT and the server cannot be reached again: whether \(what) is "
                + "unknown. When the server is back, its migration status shows \(version) as "
                + (direction == .up ? "applied if it committed, pending if not" : "pending if it committed, applied if not")
        case (.markedFailed(let committed), _):
            let what = direction == .up ? "migration \(version)" : "the rollback of \(version)"
            let complete = direction == .up ? "its changes are complete" : "it is still fully applied"
            let undone = direction == .up ? "you undid them; `up` runs it again" : "its rollback is complete"
            return "\(what) ran without a transaction: \(committed) statement\(committed == 1 ? "" : "s") before "
                + "the failing one \(committed == 1 ? "is" : "are") committed, and the history marks it failed. "
                + "Check the database, then resolve it as applied (\(complete)) or as rolled back (\(undone))"
                + earlierSteps
        }
    }

    /// What stays of the run's earlier steps in this direction, e.g. `; 2 earlier
    /// migrations of this run stay applied` (empty when there were none).
    var earlierSteps: String {
        let noun = direction == .up ? "earlier migration" : "earlier rollback"
        let state = direction == .up ? "applied" : "done"
        switch earlierInRun {
        case 0: return ""
        case 1: return "; 1 \(noun) of this run stays \(state)"
        default: return "; \(earlierInRun) \(noun)s of this run stay \(state)"
        }
    }
}
