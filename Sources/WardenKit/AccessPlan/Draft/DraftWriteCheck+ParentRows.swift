extension DraftWriteCheck {
    /// One check per foreign key from an exposed table with an owner column (`lines.dm_id
    /// -> dms`, `sender = auth.uid()`) to another exposed table whose rows have a uuid
    /// owner column too (`dms.a`), membership tables aside (`joins`): the first signed-in
    /// persona inserting its own row naming a parent row of the second's. Kept only where
    /// the first persona cannot read the second's parent rows (`hiddenParent`; a comment
    /// on a post everyone reads is the app working): then such a row is a message in
    /// someone else's conversation, an item on someone else's private list.
    static func parentRowWrites(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, _, other, otherEmail) = writerAndOther(personas) else { return [] }
        let columns = ownership.catalog.columns
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            guard ownership.membershipColumns(of: table) == nil, let owner = ownership.ownerColumn(of: table) else { return [] }
            let sample = ownership.sample(of: table)
            return (columns[table] ?? []).compactMap { column in
                guard column.name != owner, column.writable, let reference = column.reference,
                      let parent = exposed[reference.table], parent != table,
                      let parentOwner = ownership.ownerColumn(of: parent),
                      columns[parent]?.first(where: { $0.name == parentOwner })?.typeName == "uuid"
                else { return nil }
                let target = """
                    select p.\(DraftOwnership.sqlName(reference.column))::text from \(reference.table) p
                      join auth.users u on u.id = p.\(DraftOwnership.sqlName(parentOwner))
                      where u.email = \(DraftOwnership.literal(otherEmail)) order by p.ctid limit 1
                    """
                return insert(
                    "\(writer.name) writes a \(table) row into a \(parent) row of \(other.name)'s", writer: writer,
                    into: table, quotedTable: quoted, sample: sample, naming: column.name, type: column.typeName, target: target,
                    danger: "a signed-in user may write \(table) rows into other users' \(parent) rows, which they cannot read "
                        + "(an insert of the user's own row naming another user's row went through)",
                    hiddenParent: parent)
            }
        }
    }
}
