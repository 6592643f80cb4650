/// Transaction control in a section pgwarden runs in its own transaction, judged from
/// each statement's `StatementKind` (comments and quotes never hide a keyword).
///
/// - A section with markers: any BEGIN, COMMIT, ROLLBACK or two-phase command is an
///   error (mark the section `transaction:false` to manage transactions yourself).
/// - A file without markers (the Supabase CLI's and golang-migrate's format): top-level
///   `BEGIN; ... COMMIT;` pairs, the way such files are often wrapped, are dropped, so
///   the body runs atomically in pgwarden's transaction together with its history row.
///   ROLLBACK, a BEGIN inside a BEGIN, a COMMIT without BEGIN or a BEGIN without
///   COMMIT is an error before anything runs.
enum TransactionControlCheck {
    /// The indices of the statements to drop (BEGIN/COMMIT pairs of a marker-less
    /// section); throws `MigrationInputError` for control pgwarden cannot honour.
    static func droppedStatements(_ section: MigrationSection, source: SourceText, direction: MigrationDirection)
        throws -> [Int]
    {
        guard section.options.transaction else { return [] }
        var dropped: [Int] = []
        var openBegin: (index: Int, line: Int)?
        for (index, statement) in section.statements.enumerated() where statement.kind.endsTransaction {
            let kind = statement.kind
            let line = source.location(ofOffset: section.startOffset + statement.range.lowerBound).line
            func refuse(_ problem: String) -> MigrationInputError {
                .transactionControl(file: section.path, line: line, statement: kind.label, direction: direction.rawValue,
                                    problem: problem)
            }
            guard section.markerLine == nil else { throw refuse(Problem.inMarkedSection) }
            switch kind {
            case .begin:
                if let openBegin { throw refuse("a BEGIN inside the BEGIN of line \(openBegin.line) (nested transactions)") }
                openBegin = (index, line)
            case .commit:
                guard let begin = openBegin else { throw refuse("a COMMIT without a BEGIN before it") }
                dropped += [begin.index, index]
                openBegin = nil
            case .rollback:
                throw refuse("ROLLBACK would undo part of the migration while pgwarden records it applied; remove it")
            default:
                throw refuse("two-phase commit cannot run in a migration")
            }
        }
        if let openBegin {
            throw MigrationInputError.transactionControl(
                file: section.path, line: openBegin.line, statement: "BEGIN", direction: direction.rawValue,
                problem: "a BEGIN without a COMMIT after it")
        }
        return dropped
    }

    enum Problem {
        static let inMarkedSection = "in a section that pgwarden runs in a transaction of its own"
    }
}
