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

    /// `tables` (spelt `schema.name`, as the statistics name them) -> digest, for
    /// those read. Each is read in a savepoint of its own, rolled back: a table the
    /// session may not read is left out, not an error that ends the run.
    static func read(_ tables: [String], on connection: Connection) throws -> [String: String] {
        guard !tables.isEmpty else { return [:] }
        let quoted = try connection.query("""
            select format('%s.%s', n.nspname, c.relname), format('%I.%I', n.nspname, c.relname)
            from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            where c.relkind = 'r' and format('%s.%s', n.nspname, c.relname) = any(\(PostgresArray.literal(tables))::text[])
              and pg_catalog.pg_relation_size(c.oid) <= \(largestRead)
            """).rows
        var digests: [String: String] = [:]
        for row in quoted {
            guard let table = row[0] ?? nil, let name = row[1] ?? nil else { continue }
            do {
                digests[table] = try connection.rolledBackSavepoint {
                    try connection.query("""
                        select count(*)::text || '/' || coalesce(sum(pg_catalog.hashtextextended(t.xmin::text || ' ' || t::text, 0)), 0)::text
                        from \(raw: name) as t
                        """).rows.first?.first ?? nil
                }
            } catch is PGError {
                continue
            }
        }
        return digests
    }
}
