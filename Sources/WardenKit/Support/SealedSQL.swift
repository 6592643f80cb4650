/// The check made before SQL that pgwarden did not write (plan SQL, seed files) runs
/// inside a transaction of pgwarden's own: no statement may end or replace that
/// transaction, touch its savepoints, change who the session is, or change settings
/// beyond the transaction.
package enum SealedSQL {
    /// A statement that would break the seal, and where it is.
    package struct Violation: Sendable, Equatable {
        /// The offending statement's kind.
        package var kind: StatementKind
        /// Its 1-based line within the checked text.
        package var line: Int
        /// Its first words, for the message (`commit`, `set role`).
        package var words: String

        /// A sentence naming what is refused and why.
        package var message: String {
            "'\(words)' (\(kind.label)) is not allowed here: pgwarden runs this SQL inside its own transaction, "
                + "which must stay open, keep its savepoints and its role, and keep settings local (use SET LOCAL)"
        }
    }

    /// The kinds that may run inside pgwarden's transaction: ordinary statements and
    /// transaction-local settings (`SET LOCAL`, `SET CONSTRAINTS`, `SET TRANSACTION`).
    package static let allowedKinds: Set<StatementKind> = [.other, .transactionSetting]

    /// The first statement of `text` whose kind is not allowed (beyond `allowedKinds`,
    /// also `extra`: seeds may stream `COPY FROM STDIN` data); nil when all are.
    package static func firstViolation(in text: String, alsoAllowing extra: Set<StatementKind> = []) -> Violation? {
        checked(text, alsoAllowing: extra).violation
    }

    /// `text` split once: its statements, and the first whose kind is not allowed (as
    /// `firstViolation`), for a caller that checks the statements further.
    package static func checked(_ text: String, alsoAllowing extra: Set<StatementKind> = [])
        -> (statements: [SQLStatement], violation: Violation?)
    {
        let statements = StatementSplitter.split(text)
        let allowed = allowedKinds.union(extra)
        guard let statement = statements.first(where: { !allowed.contains($0.kind) }) else { return (statements, nil) }
        let violation = Violation(
            kind: statement.kind,
            line: SourceText(text).location(ofOffset: statement.range.lowerBound).line,
            words: statement.keywords.prefix(3).joined(separator: " "))
        return (statements, violation)
    }

    /// The statements of `text`, each as sent to the server, in order.
    package static func statements(of text: String) -> [String] {
        StatementSplitter.split(text).map(\.text)
    }
}
