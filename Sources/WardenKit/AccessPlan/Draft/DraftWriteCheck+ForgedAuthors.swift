import Foundation

extension DraftWriteCheck {
    /// One check per table whose rows name two users, where an insert must name the
    /// user in one column (`with check (sender = auth.uid())`) and an update is allowed
    /// by the other (`using (recipient = auth.uid())`, or either, `sender = auth.uid() or
    /// recipient = auth.uid()`: the recipient marking a message read), which says nothing of the first:
    /// the first signed-in persona, as the row's recipient, sets its sender to the second
    /// persona. Where that goes through, a user rewrites who wrote a row they only
    /// received ("ben asked ava to be friends, accepted"), which `update: own` cannot
    /// say: the draft's rows name the persona in both columns, and moving one to another
    /// user moved both (a workout app's friend requests, round thirty-eight).
    ///
    /// Only where a signed-in user may update the first column, and a row whose second
    /// column is the persona exists (the check is dropped when no row was written).
    static func forgedAuthors(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, _, other, otherEmail) = writerAndOther(personas) else { return [] }
        let catalog = ownership.catalog
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            let users = (catalog.columns[table] ?? []).filter { ownership.userKeyedTable(of: $0) != nil }
            guard users.count >= 2 else { return [] }
            // Compared with auth.uid() as the owner column is found (`DraftOwnership.firstCompared`).
            let named = { (column: DraftCatalog.Column, expressions: [String]) in
                DraftOwnership.firstCompared(in: expressions, among: [column.name]) != nil
            }
            let updaters = users.filter { named($0, catalog.updateUsings[table] ?? []) }
            return users.compactMap { author -> DraftWriteCheck? in
                guard author.writable, author.signedInMayUpdate, named(author, catalog.insertChecks[table] ?? []),
                      let updater = updaters.first(where: { $0.name != author.name }) else { return nil }
                let name = DraftOwnership.sqlName(author.name)
                let target = "select u.id::text from auth.users u where u.email = \(DraftOwnership.literal(otherEmail))"
                let check = before(expectingOneRow(
                    "\(writer.name) sets \(author.name) to \(other.name) in a \(table) row whose \(updater.name) is \(writer.name)",
                    writer: writer,
                    sql: "update \(quoted) set \(name) = current_setting('\(setting)')::\(author.typeName) "
                        + "where ctid = (select r.ctid from \(quoted) r where r.\(DraftOwnership.sqlName(updater.name)) = auth.uid() "
                        + "order by r.ctid limit 1)"),
                    target: target)
                return DraftWriteCheck(
                    table: table, check: check,
                    danger: "a signed-in user may set \(author.name), which an insert must give as the user themselves, "
                        + "to another user in a \(table) row whose \(updater.name) they are (an update went through: "
                        + "a row they did not write, in another user's name)",
                    refusals: ["42501", "P0001"])
            }
        }
    }
}
