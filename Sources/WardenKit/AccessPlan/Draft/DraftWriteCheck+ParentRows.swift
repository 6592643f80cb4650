extension DraftWriteCheck {
    /// One check per foreign key from an exposed table with an owner column (`lines.dm_id
    /// -> dms`, `sender = auth.uid()`), or owned through another of its keys
    /// (`owningColumns`), to another exposed table whose rows have a uuid
    /// owner column too (`dms.a`), membership tables aside (`joins`): the first signed-in
    /// persona inserting its own row naming a parent row of the second's. Kept only where
    /// the first persona cannot read that parent row (the insert writes nothing where it
    /// can; a comment on a post everyone reads is the app working): then such a row is a
    /// message in someone else's conversation, an item on someone else's private list.
    /// (Judged by the writer's whole read of the parent table, one published row of a
    /// third user's, which every user reads, dropped the check: a study platform whose
    /// subjects join any study, round thirty.)
    static func parentRowWrites(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, writerEmail, other, otherEmail) = writerAndOther(personas) else { return [] }
        let columns = ownership.catalog.columns
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            guard ownership.membershipColumns(of: table) == nil, let owned = owningColumns(of: table, ownership) else { return [] }
            // A column the signed-in role may not insert is left to its default, as a
            // client's POST leaves it (`grant insert (list_id, body)` beside `author_id
            // default auth.uid()`: the check named the author, the grant refused it, 42501
            // read as "refused", and posting into another user's private list went unseen;
            // a wish-list app, round forty).
            let sample = ownership.sample(of: table).filter { entry in
                (columns[table] ?? []).first { $0.name == entry.column }
                    .map { $0.signedInMayInsert || $0.defaultExpression == nil } ?? true
            }
            // A row's own key, to move one own row (nil: no update check): the owner column
            // itself where it is the key (`profiles.id`: a user moving their profile's
            // `current_workspace_id` into another user's workspace, which a custom access
            // token hook then issued as the claim the policies read, was never tried).
            let key = (columns[table] ?? []).first { $0.uniqueAlone && !owned.columns.contains($0.name) }?.name
                ?? (columns[table] ?? []).first { $0.uniqueAlone && owned.columns.contains($0.name) }?.name
            return (columns[table] ?? []).flatMap { column -> [DraftWriteCheck] in
                // Through a parent, a key naming a user (`created_by -> profiles`) is who made
                // the row, not a row of someone else's it is written into (a share link's
                // creator: three made-up DANGERs on a Markdown app, round thirty-six).
                guard owned.isOwnerColumn || ownership.userKeyedTable(of: column) == nil else { return [] }
                guard !owned.columns.contains(column.name), column.writable, column.signedInMayInsert, let reference = column.reference,
                      let parent = exposed[reference.table], parent != table,
                      let ownerJoin = Self.ownerJoin(of: parent, ownership)
                else { return [] }
                // Two keys to one parent (`giver_id`, `receiver_id -> people`): each check
                // names its column (the same name twice made one DANGER line twice).
                let through = (columns[table] ?? []).filter { $0.reference?.table == reference.table }.count > 1
                    ? " through \(column.name)" : ""
                let target = """
                    select p.\(DraftOwnership.sqlName(reference.column))::text from \(reference.table) p
                      \(ownerJoin)
                      where u.email = \(DraftOwnership.literal(otherEmail)) order by \(ownership.stateFirst(of: reference.table, askedBy: table, alias: "p"))p.ctid limit 1
                    """
                let written = insert(
                    "\(writer.name) writes a \(table) row into a \(parent) row of \(other.name)'s\(through)", writer: writer,
                    into: table, quotedTable: quoted, sample: sample, naming: column.name, type: column.typeName, target: target,
                    danger: "a signed-in user may write \(table) rows into other users' \(parent) rows\(through), which they cannot read "
                        + "(an insert of the user's own row naming another user's row went through)",
                    unlessReadable: (reference.table, reference.column))
                guard column.signedInMayUpdate, let key else { return [written] }
                // The same through an update of an own row: an insert policy that checks the
                // parent beside an update policy of `using (user_id = auth.uid())` alone let
                // any user move a note into another user's workspace.
                let name = DraftOwnership.sqlName(key)
                // The own row in the order rows were made (by key, one of two own rows at random).
                let order = ownership.catalog.tablesSignedInMaySelect.contains(table) ? "ctid" : name
                let check = before(expectingOneRow(
                    "\(writer.name) moves a \(table) row of \(writer.name)'s into a \(parent) row of \(other.name)'s\(through)", writer: writer,
                    sql: "update \(quoted) set \(DraftOwnership.sqlName(column.name)) = current_setting('\(setting)')::\(column.typeName) "
                        + "where \(name) = (select \(name) from \(quoted) where \(owned.condition) order by \(order) limit 1)"),
                    target: target)
                let moved = DraftWriteCheck(
                    table: table, check: check,
                    danger: "a signed-in user may move their \(table) rows into other users' \(parent) rows\(through), which they cannot read "
                        + "(an update of the user's own row naming another user's row went through)",
                    hiddenParent: parent, needsOwnRow: table, refusals: ["42501", "P0001"], noRowRefuses: true,
                    sameHoleAs: written.check.name)
                // Proving the row moved, where its owner column says whose it is (a trigger
                // keeping a message's thread, `new.thread_id := old.thread_id`, made a moved
                // row of one that stayed: a made-up DANGER; round thirty-nine).
                guard owned.isOwnerColumn, let owner = owned.columns.first else { return [written, moved] }
                return [written, moved.provingTheChange(of: column.name, in: quoted, ownedBy: owner, writerEmail: writerEmail)]
            }
        }
    }

    /// The columns that make a row of `table` the persona's, and the condition true of
    /// the persona's rows: its owner column (`user_id = auth.uid()`), or, where it has
    /// none, the foreign keys its owner rule reads, and that rule (`letter_id` of
    /// `exists (select 1 from letters l where l.id = letter_id and l.user_id =
    /// auth.uid())`: a link owned through its letter named any user's contact, and no
    /// check tried it; round thirty-six). Nil when neither is there.
    private static func owningColumns(
        of table: String, _ ownership: DraftOwnership
    ) -> (columns: Set<String>, condition: String, isOwnerColumn: Bool)? {
        if let owner = ownership.ownerColumn(of: table) { return ([owner], "\(DraftOwnership.sqlName(owner)) = auth.uid()", true) }
        let references = ownership.ownerRuleReferences(of: table)
        guard !references.isEmpty, let rule = ownership.ownerRule(of: table) else { return nil }
        return (references, "(\(rule))", false)
    }

    /// The joins from a row `p` of `parent` to its owner's `auth.users` row `u`: through
    /// its uuid owner column, or, where it has none, through the first foreign key to a
    /// table that has one (`projects.workspace_id -> workspaces.owner_id`: a grant naming
    /// another user's project, in a sharing table whose policy checks only the granter,
    /// was never tried; round thirty-four). Nil when neither is there.
    static func ownerJoin(of parent: String, _ ownership: DraftOwnership) -> String? {
        let columns = ownership.catalog.columns
        func uuidOwner(of table: String) -> String? {
            guard let owner = ownership.ownerColumn(of: table),
                  columns[table]?.first(where: { $0.name == owner })?.typeName == "uuid" else { return nil }
            return owner
        }
        if let owner = uuidOwner(of: parent) { return "join auth.users u on u.id = p.\(DraftOwnership.sqlName(owner))" }
        guard ownership.membershipColumns(of: parent) == nil,
              let grandparent = ownership.ownedParent(of: parent, ownerOf: uuidOwner) else { return nil }
        return """
            join \(grandparent.table) g on g.\(DraftOwnership.sqlName(grandparent.key)) = p.\(DraftOwnership.sqlName(grandparent.column))
                  join auth.users u on u.id = g.\(DraftOwnership.sqlName(grandparent.owner))
            """
    }
}
