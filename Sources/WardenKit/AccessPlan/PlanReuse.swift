import WardenPostgres

/// Which statements of a probe batch share one plan. A text that the batch sends
/// more than once as the same role goes as a named prepared statement: its first
/// use prepares it (Parse) and runs it, later uses only run it (Bind, Execute), so
/// the server parses, analyses and plans it once instead of once per probe.
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

    /// Each known unit's statements as they are sent.
    private var units: [[PipelinedBatch.Statement]] = []
    /// The units that run each name without preparing it.
    private var usedBy: [String: Set<Int>] = [:]

    /// `roles[u][i]`: the role statement i of unit u is parsed as; nil: sent unnamed.
    init(units sqlUnits: [[SQL]], roles: [[String?]], connection: Connection) {
        units = sqlUnits.map { $0.map(PipelinedBatch.Statement.init) }
        // Where each (role, text) occurs, in order; one hashing of each text.
        var uses: [Key: [(unit: Int, index: Int)]] = [:]
        var order: [Key] = []
        for (unitIndex, unitRoles) in roles.enumerated() {
            for (index, role) in unitRoles.enumerated() {
                guard let role else { continue }
                let key = Key(role: role, text: units[unitIndex][index].text)
                if uses[key]?.append((unitIndex, index)) == nil {
                    uses[key] = [(unitIndex, index)]
                    order.append(key)
                }
            }
        }
        for key in order {
            guard let places = uses[key], places.count > 1 else { continue }
            let name = connection.nextPreparedStatementName()
            for (position, place) in places.enumerated() {
                let statement = units[place.unit][place.index]
                if position == 0 {
                    units[place.unit][place.index] = statement.preparing(as: name)
                } else {
                    units[place.unit][place.index] = statement.reusing(name)
                    usedBy[name, default: []].insert(place.unit)
                }
            }
        }
    }

    /// How unit `index`'s statements are sent; units added after this was made are
    /// sent unnamed.
    func statements(ofUnit index: Int, _ sql: [SQL]) -> [PipelinedBatch.Statement] {
        index < units.count ? units[index] : sql.map(PipelinedBatch.Statement.init)
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
