import WardenPostgres

/// Which statements of a probe batch share one plan. Every statement the batch sends
/// as a known role goes as a named prepared statement: the first with its text and
/// role prepares it (Parse) and runs it, later ones only run it (Bind, Execute), so
/// the server parses, analyses and plans a text once per role instead of once per
/// probe. Each name is decided when its unit is sent, so a batch can be sent while it
/// is still being made (`ProbeBatch.startSending(on:)`); a text sent only once is
/// prepared all the same (measured on Electric Ride's plan: no more of the server's
/// time than sending it unnamed; issue 18).
///
/// Why a shared plan proves what an unnamed statement proves: the statement is
/// parsed as the role it runs as (the key includes the role, so name lookups and
/// their schema `USAGE` checks are the persona's), privileges are checked when it
/// runs, and the server analyses and plans it again whenever what it depends on
/// changes: the catalog (every probe's changes are rolled back, and a rollback
/// invalidates what they touched), `search_path`, and, where row security applies,
/// the current role and `row_security` (PostgreSQL's plan cache, `plancache.c`).
/// Values stay bound parameters, typed as for the unnamed statement.
struct PlanReuse {
    /// The role key for statements that look no name up (a rollback to a savepoint).
    static let anyRole = "\u{0}any"
    /// The role key for statements the admin runs (a persona's role name never starts
    /// with a NUL).
    static let adminRole = "\u{0}admin"

    private struct Key: Hashable {
        let role: String
        let text: String
    }

    private let connection: Connection
    /// The name each (role, text) was prepared as.
    private var names: [Key: String] = [:]
    /// The units that run each name without preparing it.
    private var usedBy: [String: Set<Int>] = [:]

    init(connection: Connection) {
        self.connection = connection
    }

    /// How unit `unit`'s statements are sent. `roles[i]`: the role statement i is parsed
    /// as; nil: sent unnamed.
    mutating func statements(_ sql: [SQL], roles: [String?], unit: Int) -> [PipelinedBatch.Statement] {
        zip(sql, roles).map { sql, role in
            let statement = PipelinedBatch.Statement(sql)
            guard let role else { return statement }
            let key = Key(role: role, text: statement.text)
            if let name = names[key] {
                usedBy[name, default: []].insert(unit)
                return statement.reusing(name)
            }
            let name = connection.nextPreparedStatementName()
            names[key] = name
            return statement.preparing(as: name)
        }
    }

    /// The units that were to run a prepared statement whose Parse failed or was
    /// skipped: they got 26000 (`invalid_sql_statement_name`) instead of their outcome.
    /// (A failed preparing statement does not tell: its outcome is its run's error once
    /// the Parse worked, e.g. an insert that row security refuses.)
    func unitsMissingTheirPlan(_ outcomes: [[PipelinedBatch.Outcome]]) -> [Int] {
        var missing: Set<Int> = []
        for unit in usedBy.values.joined() where !missing.contains(unit) {
            let lacksPlan = outcomes[unit].contains { outcome in
                if case .error(let error) = outcome { return error.sqlState == Self.invalidStatementName }
                return false
            }
            if lacksPlan { missing.insert(unit) }
        }
        return missing.sorted()
    }

    private static let invalidStatementName: SQLState = "26000"
}
