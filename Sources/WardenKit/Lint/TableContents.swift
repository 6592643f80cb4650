import WardenPostgres

/// What tables hold, one digest each (their rows' count and the sum of 64-bit hashes
/// of each row's `xmin` and text), to tell whether the writes a call's statistics count
/// stayed: `pg_stat_xact_user_tables` counts a row inserted inside an exception block
/// that then failed, though the block rolled it back (a definer function queueing an
/// e-mail, then failing to send it, "inserted 1 row" and was a made-up DANGER). A row
/// version's `xmin` is the (sub)transaction that wrote it, so an update that stayed
/// changes the digest even where it wrote the values the row had (a definer function
/// that may rewrite any user's row).
enum TableContents {
    /// Tables larger than this on disk are not read: a digest of them would take long,
    /// and their counted writes are believed.
    static let largestRead = 64 << 20

    private static let savepoint = "pgwarden_lint_contents"

    /// The digest of the rows of `alias` (a relation in a FROM, or a row variable), as
    /// SQL: their count, and the sum of 64-bit hashes of each row's `xmin` and text.
    static func digest(of alias: String) -> String {
        "count(*)::text || '/' || coalesce(sum(pg_catalog.hashtextextended(\(alias).xmin::text || ' ' || \(alias)::text, 0)), 0)::text"
    }

    /// `tables` (spelt `schema.name`, as the statistics name them) -> digest, for those
    /// the session may read. One round trip: a savepoint and one statement reading every
    /// table through `query_to_xml` (each table's name quoted by `format('%I')`), then,
    /// after a Sync, the savepoint rolled back, so that a read that fails leaves the
    /// run's transaction as it was (and every digest unknown: the writes are believed).
    /// (A savepoint and a statement per table cost lint 32 of a pgTAP bench's 152 round
    /// trips over a delayed link.)
    static func read(_ tables: [String], on connection: Connection) throws -> [String: String] {
        guard !tables.isEmpty else { return [:] }
        var batch = PipelinedBatch()
        // The digest's statement, as the text of a literal `format` fills in.
        let perTable = "select \(digest(of: "t")) as d from %I.%I as t".replacingOccurrences(of: "'", with: "''")
        _ = batch.add([
            "savepoint \(raw: savepoint)",
            """
            select format('%s.%s', n.nspname, c.relname),
                   (xpath('/row/d/text()', query_to_xml(format('\(raw: perTable)', n.nspname, c.relname), false, true, '')))[1]::text
            from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            where c.relkind = 'r' and format('%s.%s', n.nspname, c.relname) = any(\(PostgresArray.literal(tables))::text[])
              and pg_catalog.pg_relation_size(c.oid) <= \(largestRead) and pg_catalog.has_table_privilege(c.oid, 'SELECT')
            """,
        ])
        _ = batch.add(["rollback to savepoint \(raw: savepoint)", "release savepoint \(raw: savepoint)"])
        let outcomes = try connection.run(batch)
        for result in outcomes[1] { _ = try result.get() }
        guard case .result(let read) = outcomes[0][1] else { return [:] }
        var digests: [String: String] = [:]
        for row in read.rows {
            if let table = row[0] ?? nil, let digest = row[1] ?? nil { digests[table] = digest }
        }
        return digests
    }
}
