import WardenPostgres

/// Several catalog queries read in one round trip: one pipelined unit, each query its
/// own protocol message, in a transaction (or, inside the caller's, a savepoint) that
/// is rolled back. From query `emptySearchPathFrom` on, `search_path` is empty (then
/// `pg_get_expr` schema-qualifies every name, e.g. `auth.uid()`). The first failure
/// stops the rest and is thrown; the rollback runs in any case.
enum CatalogReads {
    private static let savepoint = "pgwarden_catalog_read"
    private static let emptySearchPath: SQL = "select set_config('search_path', '', true)"

    static func run(_ connection: Connection, _ queries: [SQL], emptySearchPathFrom first: Int? = nil) throws -> [QueryResult] {
        let nested = connection.transactionStatus != .idle
        var statements: [SQL] = [nested ? "savepoint \(raw: savepoint)" : "begin"]
        var resultIndices: [Int] = []
        for (index, query) in queries.enumerated() {
            if index == first { statements.append(emptySearchPath) }
            resultIndices.append(statements.count)
            statements.append(query)
        }
        var batch = PipelinedBatch()
        _ = batch.add(statements)
        _ = batch.add(nested ? ["rollback to savepoint \(raw: savepoint)", "release savepoint \(raw: savepoint)"] : ["rollback"])
        let outcomes = try connection.run(batch)
        for outcome in outcomes[0] { _ = try outcome.get() }
        for outcome in outcomes[1] { _ = try outcome.get() }
        return try resultIndices.map { try outcomes[0][$0].get() }
    }
}
