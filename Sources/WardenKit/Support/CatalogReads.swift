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
        return try results(of: try connection.run(batch)[...], at: resultIndices)
    }

    /// `run`'s two units on a session outside any transaction, for a caller that sends
    /// them in a batch of its own (one round trip with other reads); `results(of:count:)`
    /// reads their outcomes.
    static func units(_ queries: [SQL]) -> [[SQL]] {
        [["begin"] + queries, ["rollback"]]
    }

    /// The queries' results from the outcomes of `units(_:)` (`count` queries); throws
    /// the first failure, as `run` does.
    static func results(of outcomes: ArraySlice<[PipelinedBatch.Outcome]>, count: Int) throws -> [QueryResult] {
        try results(of: outcomes, at: Array(1..<1 + count))
    }

    private static func results(of outcomes: ArraySlice<[PipelinedBatch.Outcome]>, at indices: [Int]) throws -> [QueryResult] {
        let (reads, rollback) = (outcomes[outcomes.startIndex], outcomes[outcomes.startIndex + 1])
        for outcome in reads + rollback { _ = try outcome.get() }
        return try indices.map { try reads[$0].get() }
    }
}
