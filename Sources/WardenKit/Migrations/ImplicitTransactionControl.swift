/// A file without markers (the Supabase CLI's format) whose transaction control is not
/// BEGIN/COMMIT pairs, but which the Supabase CLI applies: a COMMIT with no BEGIN open
/// (the makerkit templates' `alter type ... add value 'x'; commit;`, then statements
/// using 'x'), or a BEGIN while one is open. The CLI sends a file's statements as one
/// batch, which runs in an implicit transaction (supabase/cli `pkg/migration/file.go`,
/// `ExecBatch`: "ExecBatch is implicitly transactional"); PostgreSQL commits an implicit
/// block at such a COMMIT with the warning "there is no transaction in progress", and
/// the statements after it run in a new transaction; a BEGIN inside a BEGIN only warns
/// "there is already a transaction in progress" (`EndTransactionBlock` and
/// `BeginTransactionBlock` in PostgreSQL's `xact.c`).
///
/// So is a statement that cannot run in a transaction block (`CREATE INDEX CONCURRENTLY`,
/// `DROP INDEX CONCURRENTLY`, `REINDEX ... CONCURRENTLY`, `VACUUM`, `CLUSTER`, `ALTER
/// SYSTEM`): since 2.109 the CLI runs it on its own, outside the file's batch (supabase/cli
/// #5671, design #5156; `DROP INDEX CONCURRENTLY` since #6276), where pgwarden failed
/// with 25001 and asked for a `transaction:false` marker.
///
/// pgwarden runs such a file as written, one statement at a time, as `transaction:false`
/// runs a section (what a COMMIT committed stays when a later statement fails, and the
/// history marks the file failed). A single COMMIT that ends a file with no BEGIN is
/// dropped instead: the file then runs atomically with its history row, as under the
/// CLI. A ROLLBACK, a two-phase command or a BEGIN left open is not handled here:
/// `TransactionControlCheck` refuses it (the CLI would record a file applied that its
/// ROLLBACK undid, or leave the next file inside an open transaction).
enum ImplicitTransactionControl {
    enum Handling: Equatable {
        /// Drop the statement at this index (a lone COMMIT ending the file).
        case dropTrailingCommit(index: Int)
        /// Run the file as written; the file line of the first COMMIT or BEGIN that is
        /// not half of a pair, or of the first statement that runs alone, what it is (`a
        /// COMMIT with no BEGIN open`) and how the CLI runs it.
        case runAsWritten(line: Int, what: String, how: String)
        /// Refuse the BEGIN at this file line, left open at the end of a file whose
        /// other control the CLI applies (the next file would run inside it).
        case refuseOpenBegin(line: Int)
    }

    /// How to run `section`, or nil when its control is pairs only (or none), or when
    /// `TransactionControlCheck` must refuse it.
    static func handling(_ section: MigrationSection, source: SourceText) -> Handling? {
        var inBlock = false
        var irregular: [(index: Int, what: String)] = []
        var begins = 0
        var openedAt = 0
        for (index, statement) in section.statements.enumerated() where statement.kind.endsTransaction {
            switch statement.kind {
            case .begin:
                begins += 1
                if inBlock { irregular.append((index, "a BEGIN inside the BEGIN before it")) } else { openedAt = index }
                inBlock = true
            case .commit:
                if !inBlock { irregular.append((index, "a COMMIT with no BEGIN open")) }
                inBlock = false
            default:
                return nil
            }
        }
        let line = { (index: Int) in source.location(ofOffset: section.startOffset + section.statements[index].range.lowerBound).line }
        let alone = section.statements.indices.lazy.compactMap { index in
            Self.runsAlone(section.statements[index].keywords).map { (index, $0) }
        }.first
        guard let first = irregular.first else {
            return alone.map { index, name in
                .runAsWritten(line: line(index), what: "\(name), which cannot run inside a transaction block",
                              how: "the Supabase CLI (2.109 and later) runs such a statement on its own, outside the file's transaction")
            }
        }
        if inBlock { return .refuseOpenBegin(line: line(openedAt)) }
        if alone == nil, irregular.count == 1, begins == 0, first.index == section.statements.count - 1 {
            return .dropTrailingCommit(index: first.index)
        }
        return .runAsWritten(line: line(first.index), what: first.what,
                             how: "the Supabase CLI runs a file in one implicit transaction, which such a COMMIT commits, and goes on")
    }

    /// The statement's name when it cannot run inside a transaction block, by its first
    /// keywords (as the splitter reads them: comments and quoted text never count).
    static func runsAlone(_ words: [String]) -> String? {
        let first = words.first ?? "", rest = words.dropFirst()
        switch first {
        case "create" where rest.prefix(3).contains("index") && rest.prefix(3).contains("concurrently"):
            return "CREATE INDEX CONCURRENTLY"
        case "drop" where rest.first == "index" && rest.dropFirst().first == "concurrently":
            return "DROP INDEX CONCURRENTLY"
        case "reindex" where rest.contains("concurrently"): return "REINDEX CONCURRENTLY"
        case "vacuum": return "VACUUM"
        case "cluster": return "CLUSTER"
        case "alter" where rest.first == "system": return "ALTER SYSTEM"
        default: return nil
        }
    }
}
