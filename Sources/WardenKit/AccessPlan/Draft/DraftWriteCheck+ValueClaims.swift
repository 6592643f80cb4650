import Foundation

extension DraftWriteCheck {
    /// One check per text column of a table with an owner column that another table's
    /// policies match rows on through it (`inbound` readable where `to_email in (select
    /// email from linked_emails where user_id = auth.uid())`): the first signed-in persona
    /// inserting its own row with the second's value there, and rewriting its own row
    /// with it (`rewrite`). By the owner rule the row is
    /// the persona's own, so `insert: own` held while any user could claim another's
    /// address and read the mail sent to it (a recruiting app). A key that refuses a
    /// second holder (unique on the column alone: 23505) keeps it as refused.
    static func valueClaims(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, writerEmail, other, otherEmail) = writerAndOther(personas) else { return [] }
        let catalog = ownership.catalog
        let readerNames = Set(catalog.readExpressions.keys).union(catalog.readHelperBodies.keys).sorted()
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            guard let owner = ownership.ownerColumn(of: table), ownership.membershipColumns(of: table) == nil else { return [] }
            let mayInsert = catalog.tablesSignedInMayInsert.contains(table)
            // The other tables whose read policies select from this one, found once per
            // table, not per column (3,600 columns by 345 tables took 0.6 s).
            let from = "FROM \(table)"
            let fromInBody = #"\bfrom\s+"# + DraftOwnership.namePattern(of: table) + #"(?![\w"])"#
            let bare = String(table.lowercased().split(separator: ".").last ?? "")
            let readers = readerNames.compactMap { name -> (name: String, expressions: [String])? in
                // Its policies' expressions, and the bodies of the helpers they call
                // (studyu's `can_edit` compares the caller's profile e-mail: no check was made).
                let expressions = (catalog.readExpressions[name] ?? []).filter { $0.contains(from) }
                    + (catalog.readHelperBodies[name] ?? []).filter {
                        $0.contains(bare) && $0.range(of: fromInBody, options: .regularExpression) != nil
                    }
                return name == table || expressions.isEmpty ? nil : (name, expressions)
            }
            return (catalog.columns[table] ?? []).flatMap { column -> [DraftWriteCheck] in
                // A role's value (`role = 'admin'` in a helper) is a privilege, which the
                // self-promotion checks claim by its values (`DraftWriteCheck.selfPromotions`).
                // A value from a list its check allows (`bucket in ('private', 'press')`)
                // is a category every user may hold, not one user's to claim ("may claim
                // another user's bucket" was a made-up DANGER).
                guard column.name != owner, column.writable, column.reference == nil, column.category == "S",
                      column.allowedValues == nil,
                      !DraftSingledOutValues.namesARole(column: column.name, type: column.typeName),
                      let reader = readers.first(where: { matches($0.expressions, column: column.name, besidesOf: $0.name) })?.name
                else { return [] }
                let target = """
                    select p.\(DraftOwnership.sqlName(column.name))::text from \(quoted) p
                      join auth.users u on u.id = p.\(DraftOwnership.sqlName(owner))
                      where u.email = \(DraftOwnership.literal(otherEmail)) order by p.ctid limit 1
                    """
                let claimed = "a signed-in user may claim another user's \(column.name) in \(table), which \(reader)'s policies "
                    + "match rows on"
                var claims: [DraftWriteCheck] = []
                if mayInsert {
                    var claim = insert(
                        "\(writer.name) adds a \(table) row with the \(column.name) of \(other.name)'s", writer: writer,
                        into: table, quotedTable: quoted, sample: ownership.sample(of: table), naming: column.name,
                        type: column.typeName, target: target,
                        danger: claimed + " (an insert of the user's own row with another user's value went through)")
                    claim.refusals = ["42501", "23505", "P0001"]
                    claims.append(claim)
                }
                if column.signedInMayUpdate {
                    claims.append(rewrite(column, of: quoted, table: table, owner: owner, writer: (writer, writerEmail),
                                          other: other, target: target, danger: claimed, sameHoleAs: claims.first?.check.name))
                }
                return claims
            }
        }
    }

    /// The writer's own row (the last it made) rewritten with the other's value in
    /// `column`: a profile whose e-mail the user may edit (`using (id = auth.uid())`, no
    /// check on the e-mail) where another table's policies match that e-mail. The insert
    /// alone was refused (23505: the user already has its profile), and any user could
    /// make themselves a collaborator on documents shared with an address they knew (a
    /// study platform, round thirty). An update of no row proves nothing either way, and
    /// one that a trigger turned back (`new.email := old.email`) is kept as refused: the
    /// check's `verify` asks whether the row holds the value.
    private static func rewrite(
        _ column: DraftCatalog.Column, of quoted: String, table: String, owner: String, writer: (Persona, String),
        other: Persona, target: String, danger: String, sameHoleAs: String?
    ) -> DraftWriteCheck {
        let (name, ownerName) = (DraftOwnership.sqlName(column.name), DraftOwnership.sqlName(owner))
        let own = "select r.ctid from \(quoted) r where r.\(ownerName) = auth.uid() order by r.ctid desc limit 1"
        var check = before(expectingOneRow(
            "\(writer.0.name) sets the \(column.name) of its own \(table) row to \(other.name)'s", writer: writer.0,
            sql: "update \(quoted) set \(name) = current_setting('\(setting)')::\(column.typeName) where ctid = (\(own))"),
            target: target)
        let holds = "exists (select 1 from \(quoted) r join auth.users u on u.id = r.\(ownerName) "
            + "where u.email = \(DraftOwnership.literal(writer.1)) and r.\(name)::text = current_setting('\(setting)'))"
        check.verify = "select " + holds
        var rewrite = DraftWriteCheck(
            table: table, check: check,
            danger: danger + " (an update of the user's own row to another user's value went through)")
        rewrite.absentVerify = "select not " + holds
        rewrite.refusals = ["42501", "23505", "P0001"]
        rewrite.noRowRefuses = true
        rewrite.needsOwnRow = table
        rewrite.sameHoleAs = sameHoleAs
        return rewrite
    }

    /// Whether one of `expressions` (deparsed with an empty search_path, each reading the
    /// table in a subquery: `select l.email from public.linked_emails l`) names `column`,
    /// not counting the reader's own column of that name (`storage.objects.name`, the
    /// file's path, inside a subquery over `albums`: "may claim another user's name" was
    /// a made-up DANGER, and its rewrite check failed the draft's own run).
    private static func matches(_ expressions: [String], column: String, besidesOf reader: String) -> Bool {
        let name = DraftOwnership.columnPattern(column)
        let readersOwn = #"(?<![\w"])"# + DraftOwnership.namePattern(of: reader) + #"\s*\.\s*"?"#
            + NSRegularExpression.escapedPattern(for: column) + #""?(?![\w"])"#
        return expressions.contains { expression in
            let others = expression.replacingOccurrences(of: readersOwn, with: " ", options: [.regularExpression, .caseInsensitive])
            return others.range(of: #"(?<![\w"])"# + name + #"(?![\w"])"#, options: .regularExpression) != nil
        }
    }
}
