extension DraftWriteCheck {
    /// One check per column of a table with an owner column that holds a privilege the
    /// project's rules read, and that a signed-in user may update: a role its rules name
    /// (`role = 'admin'`: `DraftSingledOutValues`; an enum label or a value its checks
    /// list), or a flag named for one (`is_admin`, `is_staff`, `is_moderator`,
    /// `is_superuser`) that is not true by default. The first signed-in persona sets it
    /// on its own row (`update profiles set role = 'admin' where id = auth.uid()`):
    /// where that goes through, any user makes themselves an administrator, which
    /// `update: own` cannot say (an education app, round twenty-six). Kept only where
    /// the persona has an own row (`needsOwnRow`).
    static func selfPromotions(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, _, _, _) = writerAndOther(personas) else { return [] }
        let catalog = ownership.catalog
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            guard let owner = ownership.ownerColumn(of: table) else { return [] }
            return (catalog.columns[table] ?? []).compactMap { column -> DraftWriteCheck? in
                guard column.name != owner, column.writable, column.signedInMayUpdate,
                      let value = privilegedValue(of: column, literals: catalog.singledOut.literals),
                      column.category == "B" || grantsBeyondItsRow(table, value: value, catalog: catalog) else { return nil }
                let check = expectingOneRow(
                    "\(writer.name) sets \(column.name) to \(value) in a \(table) row of \(writer.name)'s", writer: writer,
                    sql: "update \(quoted) set \(DraftOwnership.sqlName(column.name)) = \(value) "
                        + "where \(DraftOwnership.sqlName(owner)) = auth.uid()")
                return DraftWriteCheck(
                    table: table, check: check,
                    danger: "a signed-in user may set their own \(column.name) to \(value), a privilege the project's rules read "
                        + "(an update of the user's own row went through)",
                    needsOwnRow: table, refusals: ["42501", "P0001"], noRowRefuses: true)
            }
        }
    }

    /// The value of `column` that makes its user privileged, as SQL: a role its rules
    /// name among those it may hold, or true for a flag named for a privilege.
    /// Whether a role value in `table`'s rows can reach beyond the row itself: other
    /// tables' policies read the table (directly or through a function), or its own
    /// policies name the value (`role = 'admin'` on profiles). A note's `kind = 'poll'`
    /// that only an RPC filtering the caller's own notes names is a category, not a
    /// privilege (a made-up DANGER, "may set their own kind to 'poll'").
    private static func grantsBeyondItsRow(_ table: String, value: String, catalog: DraftCatalog) -> Bool {
        catalog.tablesReadByOtherTablesPolicies.contains(table)
            || (catalog.policyExpressions[table] ?? []).contains { $0.contains(value) }
    }

    private static func privilegedValue(of column: DraftCatalog.Column, literals: Set<String>) -> String? {
        if column.category == "B" {
            let name = column.name.lowercased()
            let named = ["admin", "staff", "moderator", "superuser", "super_user"].contains { name.contains($0) }
            return named && !column.defaultsToTrue ? "true" : nil
        }
        guard column.holdsRole, column.reference == nil, ["S", "E"].contains(column.category) else { return nil }
        let values = column.labels + (column.allowedValues ?? [])
        return values.first(where: literals.contains).map(DraftOwnership.literal)
    }
}
