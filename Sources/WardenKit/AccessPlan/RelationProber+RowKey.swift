import WardenPostgres

extension RelationProber {
    /// Whether the write probes name their row by its primary key rather than its ctid:
    /// where a role of the plan may read some columns only (`grant select (id, bio)`)
    /// and those include the key. A ctid is a column too, and naming it needs the
    /// table's own SELECT: `where ctid = ...` was refused (42501) where a client's PATCH
    /// filtering by the key (`?id=eq.`) goes through (a community app's profiles, round
    /// thirty-nine).
    var namesRowsByKey: Bool {
        !relation.readableColumns.isEmpty && !relation.primaryKey.isEmpty
            && relation.readableColumns.values.allSatisfy { Set($0).isSuperset(of: relation.primaryKey) }
    }

    /// The text the truth finds a target row by, over the relation as it names itself:
    /// its ctid, or its primary key's row (`row(profiles.id)::text`, `namesRowsByKey`).
    var rowKey: SQL {
        guard namesRowsByKey else { return "ctid::text" }
        let key = relation.primaryKey.map { column -> SQL in "\(identifier: relation.name).\(identifier: column)" }
        return "row(\(SQL.joined(key, separator: ", ")))::text"
    }

    /// The condition picking the row whose `rowKey` is `key`.
    func whereRow(_ key: String) -> SQL {
        namesRowsByKey ? "\(rowKey) = \(key)" : "ctid = \(key)::tid"
    }
}
