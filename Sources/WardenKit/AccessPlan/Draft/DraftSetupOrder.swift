/// The order of a drafted plan's setup entries: each table after the tables its foreign
/// keys reference, so that its rows can point at rows set up before them (a join table
/// after both its sides, whatever their names); otherwise the catalog's order.
///
/// A reference the setup must fill (a NOT NULL key: `strong`) always orders; one that
/// may be NULL orders too, unless it would close a cycle of references (`profiles
/// .avatar_photo_id -> photos -> albums -> profiles`: walked from profiles, photos came
/// before any album, and every photo's cell was "cannot probe"). A cycle of strong
/// references is broken where the walk meets it again (no order serves both ends).
enum DraftSetupOrder {
    /// A table a table's setup rows need first, and whether they must (`strong`).
    struct Reference {
        var table: String
        var strong: Bool
    }

    /// `tables` reordered; `references` gives the tables one table's rows need first.
    static func ordered(_ tables: [String], references: (String) -> [String]) -> [String] {
        ordered(tables, needs: { references($0).map { Reference(table: $0, strong: true) } })
    }

    /// `tables` reordered; `needs` gives the tables one table's rows need first.
    static func ordered(_ tables: [String], needs: (String) -> [Reference]) -> [String] {
        let known = Set(tables)
        let wanted = Dictionary(uniqueKeysWithValues: tables.map { table in
            (table, needs(table).filter { known.contains($0.table) && $0.table != table })
        })
        // The strong references first; then each weak one that closes no cycle with
        // those kept so far, in the tables' order.
        var kept = wanted.mapValues { $0.filter(\.strong).map(\.table) }
        func reaches(_ from: String, _ target: String) -> Bool {
            var seen: Set<String> = [], stack = [from]
            while let table = stack.popLast() {
                if table == target { return true }
                guard seen.insert(table).inserted else { continue }
                stack += kept[table] ?? []
            }
            return false
        }
        var edges: [String: [String]] = [:]
        for table in tables {
            for reference in wanted[table] ?? [] {
                if reference.strong {
                    edges[table, default: []].append(reference.table)
                } else if !reaches(reference.table, table) {
                    kept[table, default: []].append(reference.table)
                    edges[table, default: []].append(reference.table)
                }
            }
        }
        var placed: [String] = []
        var done = Set<String>()
        var visiting = Set<String>()
        func visit(_ table: String) {
            guard !done.contains(table), !visiting.contains(table) else { return }
            visiting.insert(table)
            for referenced in edges[table] ?? [] { visit(referenced) }
            visiting.remove(table)
            done.insert(table)
            placed.append(table)
        }
        tables.forEach(visit)
        return placed
    }
}
