extension DraftWriteCheck {
    /// Checks of each table's rows shared with every user (`DraftOwnership.sharedRule`:
    /// `team_id is null`, the templates every team uses): the first signed-in persona
    /// changing one, deleting one, and adding one (its sample with the shared columns
    /// NULL). Such a row is no one's own and no other user's, so no cell speaks of it:
    /// an invoicing app's `for all using (org_id is null or is_org_member(org_id))` let
    /// any user rewrite or delete the templates of every organisation, and the draft
    /// said `update: own`. The changed and deleted row is the first shared row there is
    /// (found by the admin in the check's `before` SQL; none, no check); each check is
    /// kept as it came out.
    static func sharedRows(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, _, _, _) = writerAndOther(personas) else { return [] }
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            let shared = ownership.sharedColumns(of: table)
            guard let rule = ownership.sharedRule(of: table) else { return [] }
            let columns = ownership.catalog.columns[table] ?? []
            let target = "select ctid::text from \(quoted) where \(rule) order by ctid limit 1"
            let row = "ctid = current_setting('\(setting)')::tid"
            let what = "\(table) shared with every user (\(rule))"
            var checks: [DraftWriteCheck] = []
            // A column a signed-in user may update, set to itself.
            if let column = columns.first(where: { $0.writable && $0.signedInMayUpdate }).map({ DraftOwnership.sqlName($0.name) }) {
                checks.append(DraftWriteCheck(
                    table: table,
                    check: before(expectingOneRow(
                        "\(writer.name) changes a row of \(what)", writer: writer,
                        sql: "update \(quoted) set \(column) = \(column) where \(row)"), target: target),
                    danger: "a signed-in user may change the rows of \(what) (an update of one went through)",
                    refusals: ["42501", "P0001"], noRowRefuses: true))
            }
            checks.append(DraftWriteCheck(
                table: table,
                check: before(expectingOneRow(
                    "\(writer.name) deletes a row of \(what)", writer: writer, sql: "delete from \(quoted) where \(row)"),
                    target: target),
                danger: "a signed-in user may delete the rows of \(what) (a delete of one went through)",
                refusals: ["42501", "P0001", "23503"], noRowRefuses: true))
            let sample = ownership.sample(of: table)
            let values = sample.map { shared.contains($0.column) ? ($0.column, "null") : $0 }
                + shared.filter { column in !sample.contains { $0.column == column } }.map { ($0, "null") }
            checks.append(DraftWriteCheck(
                table: table,
                check: expectingOneRow(
                    "\(writer.name) adds a row of \(what)", writer: writer,
                    sql: "insert into \(quoted) (\(values.map { DraftOwnership.sqlName($0.0) }.joined(separator: ", "))) "
                        + "values (\(values.map(\.1).joined(separator: ", ")))"),
                danger: "a signed-in user may add rows of \(what), which every user then sees (an insert of one went through)",
                refusals: ["42501", "P0001"]))
            return checks
        }
    }
}
