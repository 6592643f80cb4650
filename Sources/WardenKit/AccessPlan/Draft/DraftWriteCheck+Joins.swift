extension DraftWriteCheck {
    /// One check per exposed membership table (`members (group_id -> groups, user_id ->
    /// auth.users)`, read by other tables' policies) whose parent is exposed too: the
    /// first signed-in persona inserting its own membership naming a row the second is a
    /// member of and it is not. None without two signed-in personas. `exposed`: each
    /// exposed table's name quoted as SQL (as a foreign key names it, `public."Trip
    /// Log"`) -> its qualified name.
    ///
    /// Where the membership is a column of the user's one row (`profiles.company_id`,
    /// read by `is_company_member(id)`: `DraftOwnership.userRowsGroupColumn`), a second
    /// check moves the persona's own row into the other's group: `update: own` held
    /// while any user could set their own company and read its projects.
    static func joins(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, writerEmail, other, otherEmail) = writerAndOther(personas) else { return [] }
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            guard let membership = ownership.membershipColumns(of: table), let parent = exposed[membership.parent] else { return [] }
            let (row, user) = (DraftOwnership.sqlName(membership.rowColumn), DraftOwnership.sqlName(membership.userColumn))
            let target = """
                select m.\(row)::text from \(quoted) m join auth.users u on u.id = m.\(user)
                  where u.email = \(DraftOwnership.literal(otherEmail)) and m.\(row) is not null
                    and not exists (select 1 from \(quoted) x join auth.users v on v.id = x.\(user)
                                    where v.email = \(DraftOwnership.literal(writerEmail)) and x.\(row) = m.\(row))
                  order by m.ctid limit 1
                """
            let sample = [(membership.userColumn, "auth.uid()")] + ownership.sample(of: table).filter { $0.column != membership.userColumn }
            let join = insert(
                "\(writer.name) joins a \(parent) row of \(other.name)'s through \(table)", writer: writer,
                into: table, quotedTable: quoted, sample: sample, naming: membership.rowColumn, type: membership.rowType,
                target: target,
                danger: "a signed-in user may join another user's \(parent) rows through \(table) "
                    + "(an insert of the user's own membership naming another user's row went through)")
            // A unique key refusing it (one owner per team, `unique (team_id) where role =
            // 'owner'`, the only role the policy lets a user give themselves) is kept as
            // the refusal it is: the check was dropped, and a plan never said that the
            // index alone stops any user from owning any team (round thirty-nine).
            // (Not where the user has one row there at most, `profiles.user_id unique`:
            // 23505 then only says the user's row is there, and the move below is the check.)
            var refusedJoin = join
            if ownership.catalog.columns[table]?.contains(where: { $0.name == membership.userColumn && $0.uniqueAlone }) != true {
                refusedJoin.refusals.insert("23505")
            }
            guard ownership.userRowsGroupColumn(of: table) == membership.rowColumn else { return [refusedJoin] }
            let move = before(expectingOneRow(
                "\(writer.name) moves a \(table) row of \(writer.name)'s into a \(parent) row of \(other.name)'s", writer: writer,
                sql: "update \(quoted) set \(row) = current_setting('\(setting)')::\(membership.rowType) where \(user) = auth.uid()"),
                target: target)
            return [refusedJoin, DraftWriteCheck(
                table: table, check: move,
                danger: "a signed-in user may move themselves into another user's \(parent) rows through \(table) "
                    + "(an update of the user's own row naming another user's row went through)",
                needsOwnRow: table, refusals: ["42501", "P0001"], noRowRefuses: true)
                .provingTheChange(of: membership.rowColumn, in: quoted, ownedBy: membership.userColumn, writerEmail: writerEmail)]
        }
    }
}
