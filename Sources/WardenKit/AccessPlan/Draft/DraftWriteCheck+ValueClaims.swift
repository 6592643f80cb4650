extension DraftWriteCheck {
    /// One check per text column of a table with an owner column that another table's
    /// policies match rows on through it (`inbound` readable where `to_email in (select
    /// email from linked_emails where user_id = auth.uid())`): the first signed-in persona
    /// inserting its own row with the second's value there. By the owner rule the row is
    /// the persona's own, so `insert: own` held while any user could claim another's
    /// address and read the mail sent to it (a recruiting app). A key that refuses a
    /// second holder (unique on the column alone: 23505) keeps it as refused.
    static func valueClaims(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, _, other, otherEmail) = writerAndOther(personas) else { return [] }
        let catalog = ownership.catalog
        let readerNames = catalog.readExpressions.keys.sorted()
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            guard let owner = ownership.ownerColumn(of: table), catalog.tablesSignedInMayInsert.contains(table),
                  ownership.membershipColumns(of: table) == nil else { return [] }
            // The other tables whose read policies select from this one, found once per
            // table, not per column (3,600 columns by 345 tables took 0.6 s).
            let from = "FROM \(table)"
            let readers = readerNames.compactMap { name -> (name: String, expressions: [String])? in
                let expressions = (catalog.readExpressions[name] ?? []).filter { $0.contains(from) }
                return name == table || expressions.isEmpty ? nil : (name, expressions)
            }
            return (catalog.columns[table] ?? []).compactMap { column -> DraftWriteCheck? in
                guard column.name != owner, column.writable, column.reference == nil, column.category == "S",
                      let reader = readers.first(where: { matches($0.expressions, column: column.name) })?.name
                else { return nil }
                let target = """
                    select p.\(DraftOwnership.sqlName(column.name))::text from \(quoted) p
                      join auth.users u on u.id = p.\(DraftOwnership.sqlName(owner))
                      where u.email = \(DraftOwnership.literal(otherEmail)) order by p.ctid limit 1
                    """
                var claim = insert(
                    "\(writer.name) adds a \(table) row with the \(column.name) of \(other.name)'s", writer: writer,
                    into: table, quotedTable: quoted, sample: ownership.sample(of: table), naming: column.name,
                    type: column.typeName, target: target,
                    danger: "a signed-in user may claim another user's \(column.name) in \(table), which \(reader)'s policies "
                        + "match rows on (an insert of the user's own row with another user's value went through)")
                claim.refusals = ["42501", "23505", "P0001"]
                return claim
            }
        }
    }

    /// Whether one of `expressions` (deparsed with an empty search_path, each reading the
    /// table in a subquery: `select l.email from public.linked_emails l`) names `column`.
    private static func matches(_ expressions: [String], column: String) -> Bool {
        let name = DraftOwnership.columnPattern(column)
        return expressions.contains { expression in
            expression.range(of: #"(?<![\w"])"# + name + #"(?![\w"])"#, options: .regularExpression) != nil
        }
    }
}
