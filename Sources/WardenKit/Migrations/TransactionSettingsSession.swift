import WardenPostgres

/// A session on which an author's dropped `BEGIN; ... COMMIT;` pair runs
/// (`AuthorTransaction`): it reads, and sets back, what that COMMIT would end.
package protocol TransactionSettingsSession: AnyObject {
    /// The transaction-local state an author's COMMIT would end: every setting's value,
    /// `names` (custom settings such as `request.jwt.claims`) and the role.
    func transactionSettings(including names: [String]) throws -> [String: String]
    /// Sets back, for the rest of the transaction, the settings that changed since `before`.
    func restoreTransactionSettings(_ before: [String: String], keeping sessionNames: Set<String>) throws
}

/// Those reads and writes on a plain connection in a transaction (a seed's; a
/// migration session's, through `PostgresMigrationSession`).
package final class ConnectionTransactionSettings: TransactionSettingsSession {
    let connection: Connection

    package init(_ connection: Connection) {
        self.connection = connection
    }

    package func transactionSettings(including names: [String]) throws -> [String: String] {
        let rows = try connection.query(
            """
            select name, setting from pg_settings where context in ('user', 'superuser')
            union all select name, coalesce(current_setting(name, true), '') from unnest(\(array: names + ["role"])::text[]) name
            """).rows
        var settings: [String: String] = [:]
        for row in rows { if let name = row[0] { settings[name] = row[1] ?? "" } }
        return settings
    }

    /// `set_config(name, value, true)` for each changed setting, except those a
    /// session-level SET in the pair changed (a COMMIT keeps those) and the
    /// transaction's own characteristics (which cannot change mid-transaction).
    /// The role goes back first, and the settings are read again as it: the pair's
    /// `SET LOCAL ROLE authenticated` hides from pg_settings what only superusers and
    /// pg_read_all_settings may read, which would otherwise look changed. A setting
    /// still unreadable then (the pair's session-level SET ROLE stays) is not counted.
    package func restoreTransactionSettings(_ before: [String: String], keeping sessionNames: Set<String>) throws {
        let custom = Array(before.keys.filter { $0.contains(".") })
        var now = try transactionSettings(including: custom)
        if let role = before["role"], now["role"] != role, !sessionNames.contains("role") {
            try connection.query("select set_config('role', \(role), true)")
            now = try transactionSettings(including: custom)
        }
        let changed = before.filter { name, value in
            guard let current = now[name] else { return false }
            return current != value && !sessionNames.contains(name) && !name.hasPrefix("transaction_")
        }.sorted { ($0.key == "role" ? 0 : 1, $0.key) < ($1.key == "role" ? 0 : 1, $1.key) }  // the role first
        guard !changed.isEmpty else { return }
        try connection.query(
            """
            select set_config(name, value, true) from unnest(\(array: changed.map(\.key))::text[], \(array: changed.map(\.value))::text[]) \
            as t(name, value)
            """)
    }
}
