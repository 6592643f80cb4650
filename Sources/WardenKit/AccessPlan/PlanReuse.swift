import WardenPostgres

/// Which statements of a probe batch share one plan. A text that the batch sends
/// more than once as the same role goes as a named prepared statement: its first
/// use prepares it (Parse) and runs it, later uses only run it (Bind, Execute), so
/// the server parses, analyses and plans it once instead of once per probe.
///
/// Names are decided for the units sent together (`ProbeBatch.sendQueued()`: a
/// relation's probes, whose texts repeat among themselves, as ava's and ben's do), so
/// a batch can be sent while it is still being made (issue 18): a text sent more than
/// once among them is prepared at its first use; a text sent once is sent unnamed (a
/// prepared statement is kept in the server's memory until the run ends), and, should
/// it come again in a later group, it is prepared there.
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
    /// The (role, text)s sent once, unnamed, in an earlier group.
    private var sentUnnamed: Set<Key> = []
    /// The units that run each name without preparing it.
    private var usedBy: [String: Set<Int>] = [:]

    init(connection: Connection) {
        self.connection = connection
    }

    /// How a group of units sent together is sent: `units[u]` is unit `first + u`'s
    /// statements and, for each, the role it is parsed as (nil: sent unnamed).
    mutating func statements(ofUnits units: [(sql: [SQL], roles: [String?])], startingAt first: Int)
        -> [[PipelinedBatch.Statement]]
    {
        let statements = units.map { $0.sql.map(PipelinedBatch.Statement.init) }
        let keys = zip(units, statements).map { unit, sent in
            zip(unit.roles, sent).map { role, statement in role.map { Key(role: $0, text: statement.text) } }
        }
        // How often each (role, text) not yet named comes in this group.
        var uses: [Key: Int] = [:]
        for case let key? in keys.joined() where names[key] == nil { uses[key, default: 0] += 1 }
        return zip(statements, keys).enumerated().map { offset, unit in
            zip(unit.0, unit.1).map { statement, key in
                guard let key else { return statement }
                if let name = names[key] {
                    usedBy[name, default: []].insert(first + offset)
                    return statement.reusing(name)
                }
                guard uses[key, default: 0] > 1 || sentUnnamed.contains(key) else {
                    sentUnnamed.insert(key)
                    return statement
                }
                let name = connection.nextPreparedStatementName()
                names[key] = name
                return statement.preparing(as: name)
            }
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
