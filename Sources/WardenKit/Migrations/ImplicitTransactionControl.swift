/// A file without markers (the Supabase CLI's format) whose own transaction control, or
/// a statement in it, the CLI applies but pgwarden's one transaction per migration would
/// not.
///
/// - A COMMIT with no BEGIN open after `ALTER TYPE ... ADD VALUE 'x'` that a later
///   statement uses (the makerkit templates' idiom; PostgreSQL refuses a new enum value
///   until it is committed, 55P04). The CLI sends a file's statements as one batch, in an
///   implicit transaction (supabase/cli `pkg/migration/file.go`, `ExecBatch`: "ExecBatch
///   is implicitly transactional"); PostgreSQL commits an implicit block at such a COMMIT,
///   warning "there is no transaction in progress" (`EndTransactionBlock`, `xact.c`), and
///   the rest runs in a new transaction. (`EnumValueCommit` is the same idiom with a BEGIN.)
/// - A statement that cannot run in a transaction block (`CREATE INDEX CONCURRENTLY`,
///   `DROP INDEX CONCURRENTLY`, `REINDEX ... CONCURRENTLY`, `VACUUM`, `CLUSTER`, `ALTER
///   SYSTEM`): since 2.109 the CLI runs it on its own, outside the file's batch (supabase/cli
///   #5671, design #5156; `DROP INDEX CONCURRENTLY` since #6276), where pgwarden failed
///   with 25001 and asked for a `transaction:false` marker.
///
/// pgwarden runs such a file as written, one statement at a time, as `transaction:false`
/// runs a section (what a COMMIT committed stays when a later statement fails, and the
/// history marks the file failed). A lone COMMIT that ends a file with no BEGIN, or one
/// after an enum value nothing after it uses, is dropped instead: the file then runs
/// atomically with its history row, as under the CLI when it succeeds. Any
/// other COMMIT with no BEGIN open is still refused (`TransactionControlCheck`), as are
/// ROLLBACK, a nested BEGIN and a BEGIN left open: a COMMIT whose reason pgwarden cannot
/// see is how a text once smuggled a COMMIT and a DELETE past a check (issue 15).
enum ImplicitTransactionControl {
    enum Handling: Equatable {
        /// Drop the statements at these indices (a lone COMMIT ending the file, or after an
        /// enum value nothing after it uses): the file runs atomically.
        case dropCommits(indices: [Int])
        /// Run the file as written; the file line of the COMMIT honoured, or of the first
        /// statement that runs alone, what it is and how the CLI runs it.
        case runAsWritten(line: Int, what: String, how: String)
    }

    /// How to run `section`, or nil when `TransactionControlCheck` decides (pairs only,
    /// none, or control it refuses).
    static func handling(_ section: MigrationSection, source: SourceText) -> Handling? {
        let statements = section.statements
        let line = { (index: Int) in source.location(ofOffset: section.startOffset + statements[index].range.lowerBound).line }
        var depth = 0
        var bare: [Int] = []
        for (index, statement) in statements.enumerated() where statement.kind.endsTransaction {
            switch statement.kind {
            case .begin:
                depth += 1
                if depth > 1 { return nil }
            case .commit:
                if depth == 0 { bare.append(index) } else { depth -= 1 }
            default: return nil
            }
        }
        guard depth == 0 else { return nil }
        if let alone = statements.indices.lazy.compactMap({ index in Self.runsAlone(statements[index].keywords).map { (index, $0) } }).first {
            guard bare.isEmpty || bare.allSatisfy({ enumValueCommit(at: $0, in: statements) }) else { return nil }
            return .runAsWritten(line: line(alone.0), what: "\(alone.1), which cannot run inside a transaction block",
                                 how: "the Supabase CLI (2.109 and later) runs such a statement on its own, outside the file's transaction")
        }
        guard let first = bare.first else { return nil }
        let last = statements.count - 1
        if !bare.contains(where: { enumValueCommit(at: $0, in: statements) }), !statements.contains(where: { $0.kind == .begin }),
           bare.allSatisfy({ $0 == last || !addedValues(before: $0, in: statements).isEmpty }) {
            return .dropCommits(indices: bare)
        }
        guard bare.allSatisfy({ $0 == last || !addedValues(before: $0, in: statements).isEmpty }) else { return nil }
        let honoured = bare.first { enumValueCommit(at: $0, in: statements) } ?? first
        return .runAsWritten(line: line(honoured), what: "a COMMIT with no BEGIN open after an enum value it adds, which a later statement uses",
                             how: "the Supabase CLI runs a file in one implicit transaction, which such a COMMIT commits (PostgreSQL "
                                 + "lets a transaction use a new enum value only once it is committed)")
    }

    /// Whether the COMMIT at `index` follows, since the previous COMMIT, an `ALTER TYPE
    /// ... ADD VALUE` whose value a statement after it names.
    private static func enumValueCommit(at index: Int, in statements: [SQLStatement]) -> Bool {
        EnumValueCommit.used(addedValues(before: index, in: statements), after: index, in: statements)
    }

    /// The enum values the `ALTER TYPE ... ADD VALUE`s before the COMMIT at `index` add,
    /// since the previous COMMIT (`EnumValueCommit.addedValues`).
    private static func addedValues(before index: Int, in statements: [SQLStatement]) -> [String] {
        let start = statements[..<index].lastIndex { $0.kind == .commit }.map { $0 + 1 } ?? 0
        return statements[start..<index].flatMap(EnumValueCommit.addedValues)
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
