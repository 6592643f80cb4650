/// The order of a drafted plan's setup entries: each table after the tables its foreign
/// keys reference, so that its rows can point at rows set up before them (a join table
/// after both its sides, whatever their names); otherwise the catalog's order. A cycle of
/// references is broken where the walk meets it again (no order serves both ends).
enum DraftSetupOrder {
    /// `tables` reordered; `references` gives the tables one table's foreign keys name.
    static func ordered(_ tables: [String], references: (String) -> [String]) -> [String] {
        let known = Set(tables)
        var placed: [String] = []
        var done = Set<String>()
        var visiting = Set<String>()
        func visit(_ table: String) {
            guard !done.contains(table), !visiting.contains(table) else { return }
            visiting.insert(table)
            for referenced in references(table) where known.contains(referenced) && referenced != table {
                visit(referenced)
            }
            visiting.remove(table)
            done.insert(table)
            placed.append(table)
        }
        tables.forEach(visit)
        return placed
    }
}
