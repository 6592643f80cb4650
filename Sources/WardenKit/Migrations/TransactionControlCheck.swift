/// Transaction control in SQL that pgwarden runs in its own transaction, judged from
/// each statement's `StatementKind` (comments and quotes never hide a keyword).
///
/// - A migration section with markers: any BEGIN, COMMIT, ROLLBACK or two-phase command
///   is an error (mark the section `transaction:false` to manage transactions yourself).
/// - A migration file without markers (the Supabase CLI's and golang-migrate's format),
///   and a seed file: top-level `BEGIN; ... COMMIT;` pairs, the way such files are often
///   wrapped, are dropped, so the body runs atomically in pgwarden's transaction
///   (together with a migration's history row). ROLLBACK, a BEGIN inside a BEGIN, a
///   COMMIT without BEGIN or a BEGIN without COMMIT is an error before anything runs;
///   but a migration file's COMMIT with no BEGIN open after an enum value a later
///   statement uses runs as the Supabase CLI runs it (`ImplicitTransactionControl`,
///   consulted first).
enum TransactionControlCheck {
    /// A statement that cannot be honoured, and why.
    struct Refusal: Error {
        /// Its 1-based line in the file.
        var line: Int
        /// Its kind, as named in a message (`BEGIN`, `ROLLBACK`).
        var statement: String
        var problem: String
    }

    /// The indices of the statements to drop (BEGIN/COMMIT pairs of a marker-less
    /// section); throws `MigrationInputError` for control pgwarden cannot honour.
    static func droppedStatements(_ section: MigrationSection, source: SourceText, direction: MigrationDirection)
        throws -> [Int]
    {
        guard section.options.transaction else { return [] }
        do {
            let line = { (statement: SQLStatement) in
                source.location(ofOffset: section.startOffset + statement.range.lowerBound).line
            }
            if section.markerLine != nil, let control = section.statements.first(where: \.kind.endsTransaction) {
                throw Refusal(line: line(control), statement: control.kind.label, problem: Problem.inMarkedSection)
            }
            return try balancedPairs(
                section.statements, line: line,
                rollback: "ROLLBACK would undo part of the migration while pgwarden records it applied; remove it",
                twoPhase: "two-phase commit cannot run in a migration")
        } catch let refusal as Refusal {
            throw MigrationInputError.transactionControl(
                file: section.path, line: refusal.line, statement: refusal.statement, direction: direction.rawValue,
                problem: refusal.problem)
        }
    }

    /// The indices of `statements`' top-level BEGIN/COMMIT pairs, in order; throws a
    /// `Refusal` (with `rollback` or `twoPhase` as its problem for those kinds) for
    /// transaction control that is not such a pair.
    static func balancedPairs(
        _ statements: [SQLStatement], line: (SQLStatement) -> Int, rollback: String, twoPhase: String
    ) throws -> [Int] {
        var dropped: [Int] = []
        var openBegin: (index: Int, line: Int)?
        for (index, statement) in statements.enumerated() where statement.kind.endsTransaction {
            let kind = statement.kind
            func refuse(_ problem: String) -> Refusal { Refusal(line: line(statement), statement: kind.label, problem: problem) }
            switch kind {
            case .begin:
                if let openBegin { throw refuse("a BEGIN inside the BEGIN of line \(openBegin.line) (nested transactions)") }
                openBegin = (index, line(statement))
            case .commit:
                guard let begin = openBegin else { throw refuse("a COMMIT without a BEGIN before it") }
                dropped += [begin.index, index]
                openBegin = nil
            case .rollback:
                throw refuse(rollback)
            default:
                throw refuse(twoPhase)
            }
        }
        if let openBegin {
            throw Refusal(line: openBegin.line, statement: "BEGIN", problem: "a BEGIN without a COMMIT after it")
        }
        return dropped
    }

    enum Problem {
        static let inMarkedSection = "in a section that pgwarden runs in a transaction of its own"
    }
}
