extension DraftWriteCheck {
    /// One check per column of a table with an owner column that holds a privilege the
    /// project's rules read, and that a signed-in user may update: a role its rules name
    /// (`role = 'admin'`: `DraftSingledOutValues`; an enum label or a value its checks
    /// list), or a flag named for one (`is_admin`, `is_staff`, `is_moderator`,
    /// `is_superuser`; `verified`, `is_approved` where a policy reads it) that is not true by default. The first signed-in persona sets it
    /// on its own row (`update profiles set role = 'admin' where id = auth.uid()`):
    /// where that goes through, any user makes themselves an administrator, which
    /// `update: own` cannot say (an education app, round twenty-six). Kept only where
    /// the persona has an own row (`needsOwnRow`).
    ///
    /// Where a signed-in user may insert rows of the table too, a second check inserts
    /// an own row holding the privilege (`insert into user_roles (user_id, role) values
    /// (auth.uid(), 'admin')`): a roles table whose insert policy reads only `user_id =
    /// auth.uid()` let any user add themselves an admin row, and `insert: own` said
    /// nothing of it. Kept where the insert was refused too. Where the table holds one
    /// row per user (its owner column unique) that no sign-up trigger makes, the insert
    /// is a new user's first row: the admin deletes the persona's setup row first
    /// (`before`). (The setup's row made the insert break the unique key, no check was
    /// kept, and any user's first row could be an admin's: a shop's `user_roles`, round
    /// thirty-eight.)
    ///
    /// A row that belongs to a group another user owns (`staff (user_id, outlet_id ->
    /// outlets (user_id), role)`) is tried in a group of the second persona's: the setup
    /// puts the persona's own row in its own group, whose owner may set any role there,
    /// so "may set their own role to 'manager'" was a made-up DANGER. The update's row is
    /// made by the admin first (`before`), the insert names the other's group.
    static func selfPromotions(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, writerEmail, other, otherEmail) = writerAndOther(personas) else { return [] }
        let catalog = ownership.catalog
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            guard let owner = ownership.ownerColumn(of: table) else { return [] }
            return (catalog.columns[table] ?? []).flatMap { column -> [DraftWriteCheck] in
                guard column.name != owner, column.writable,
                      let value = privilegedValue(of: column, catalog: catalog),
                      column.category == "B" || grantsBeyondItsRow(table, column: column.name, value: value, catalog: catalog) else { return [] }
                let group = groupParent(of: table, besides: [owner, column.name], ownership: ownership)
                let firstRow = (catalog.columns[table] ?? []).contains { $0.name == owner && $0.uniqueAlone }
                    && !catalog.signUpTriggersName(table)
                let promotion = SelfPromotion(
                    writer: writer, writerEmail: writerEmail, other: other, otherEmail: otherEmail, table: table,
                    quoted: quoted, owner: owner,
                    column: column.name, value: value, group: group, firstRow: firstRow,
                    sample: ownership.sample(of: table).filter { ![owner, column.name, group?.column ?? ""].contains($0.column) })
                return [column.signedInMayUpdate ? promotion.update() : nil,
                        catalog.tablesSignedInMayInsert.contains(table) ? promotion.insert() : nil].compactMap { $0 }
            }
        }
    }

    /// A group row of another user's (`groupParent`): its column, the group's table as
    /// the foreign key names it, the referenced key, the group's owner column, the type.
    typealias GroupParent = (column: String, table: String, key: String, owner: String, type: String)

    /// The writer setting `column` to `value` on a row of its own, in a group of the
    /// other persona's where the table's rows belong to one.
    private struct SelfPromotion {
        let writer: Persona, writerEmail: String, other: Persona, otherEmail: String
        let table: String, quoted: String, owner: String, column: String, value: String
        let group: GroupParent?
        /// One row per user, made by the user (no sign-up trigger): the insert is the
        /// user's first, made after the admin deletes the setup's.
        let firstRow: Bool
        /// The table's sample, without the owner, the column and the group's column.
        let sample: [(column: String, expression: String)]

        /// " in a public.outlets row of ben's", or nothing without a group.
        private var inGroup: String { group.map { " in a \($0.table) row of \(other.name)'s" } ?? "" }
        private var inOthersRow: String { group.map { " in another user's \($0.table) row" } ?? "" }

        /// Admin SQL selecting the other persona's group row's key, as text.
        private var othersGroup: String? {
            group.map { group in
                "select p.\(DraftOwnership.sqlName(group.key))::text from \(group.table) p join auth.users u "
                    + "on u.id = p.\(DraftOwnership.sqlName(group.owner)) where u.email = \(DraftOwnership.literal(otherEmail)) "
                    + "order by p.ctid limit 1"
            }
        }

        func update() -> DraftWriteCheck {
            let set = "update \(quoted) set \(DraftOwnership.sqlName(column)) = \(value) "
            var check = expectingOneRow(
                "\(writer.name) sets \(column) to \(value) in a \(table) row of \(writer.name)'s\(inGroup)", writer: writer,
                // One own row not holding the value yet: a user with several (a listing
                // the setup shows everyone, already 'verified', beside a pending one)
                // updated two, and the check, expecting one, was dropped.
                sql: set + (group == nil
                    ? "where ctid = (select r.ctid from \(quoted) r where r.\(DraftOwnership.sqlName(owner)) = auth.uid() "
                        + "and r.\(DraftOwnership.sqlName(column)) is distinct from \(value) order by r.ctid limit 1)"
                    : "where ctid = current_setting('\(setting)')::tid"))
            if let group, let othersGroup {
                // The persona's row in the other's group, made by the admin (an empty
                // setting, when it could not be, fails the cast: no check).
                let values = [(owner, "auth.uid()"), (group.column, "(\(othersGroup))::\(group.type)")] + sample
                check.before = "with made as (insert into \(quoted) "
                    + "(\(values.map { DraftOwnership.sqlName($0.0) }.joined(separator: ", "))) "
                    + "values (\(values.map(\.1).joined(separator: ", "))) returning ctid) "
                    + "select set_config('\(setting)', coalesce((select ctid::text from made), ''), true)"
            }
            let write = DraftWriteCheck(
                table: table, check: check,
                danger: "a signed-in user may set their own \(column) to \(value)\(inOthersRow), "
                    + "a privilege the project's rules read (an update of the user's own row went through)",
                needsOwnRow: group == nil ? table : nil, refusals: ["42501", "P0001"], noRowRefuses: true)
            return group == nil ? write.provingTheChange(of: column, in: quoted, ownedBy: owner, writerEmail: writerEmail) : write
        }

        func insert() -> DraftWriteCheck {
            let name = "\(writer.name) inserts a \(table) row of \(writer.name)'s\(inGroup) with \(column) \(value)"
            let danger = "a signed-in user may give themselves \(column) \(value)\(inOthersRow), a privilege the project's "
                + "rules read (an insert of the user's own row went through)"
            let values = [(owner, "auth.uid()"), (column, value)] + sample
            if let group, let othersGroup {
                var write = DraftWriteCheck.insert(
                    name, writer: writer, into: table, quotedTable: quoted, sample: values, naming: group.column,
                    type: group.type, target: othersGroup, danger: danger)
                write.refusals = ["42501", "P0001", "23505"]
                return write
            }
            let sql = "insert into \(quoted) (\(values.map { DraftOwnership.sqlName($0.0) }.joined(separator: ", "))) "
                + "values (\(values.map(\.1).joined(separator: ", ")))"
            guard firstRow else {
                return DraftWriteCheck(table: table, check: expectingOneRow(name, writer: writer, sql: sql), danger: danger,
                                       refusals: ["42501", "P0001", "23505"])
            }
            let check = expectingOneRow(
                "\(writer.name), with no \(table) row yet, inserts one with \(column) \(value)", writer: writer, sql: sql,
                before: "delete from \(quoted) where \(DraftOwnership.sqlName(owner)) = auth.uid()")
            return DraftWriteCheck(
                table: table, check: check,
                danger: "a signed-in user with no \(table) row yet may give themselves \(column) \(value), a privilege the "
                    + "project's rules read (an insert of the user's first row went through)",
                refusals: ["42501", "P0001"])
        }
    }

    /// The writable column of `table` (other than `besides`) naming a row of another
    /// table that has an owner column (a staff row's outlet): that table as its foreign
    /// key names it, the referenced key, its owner column and the key's type.
    private static func groupParent(of table: String, besides: [String], ownership: DraftOwnership) -> GroupParent? {
        for column in ownership.catalog.columns[table] ?? [] where column.writable && !besides.contains(column.name) {
            guard let reference = column.reference, reference.table != "auth.users", reference.table != table,
                  let owner = ownership.ownerColumn(of: reference.table) else { continue }
            return (column.name, reference.table, reference.column, owner, column.typeName)
        }
        return nil
    }

    /// Whether a role value in `table`'s rows can reach beyond the row itself: other
    /// tables' policies read the table (directly or through a function), or its own
    /// policies name the value (`role = 'admin'` on profiles), or a policy or a function a
    /// policy calls compares the column with it (`is_admin()`: `select role = 'admin' from
    /// profiles where id = auth.uid()`, behind `using (public.is_admin())`). A note's `kind = 'poll'`
    /// that only an RPC filtering the caller's own notes names is a category, not a
    /// privilege (a made-up DANGER, "may set their own kind to 'poll'").
    ///
    /// Other tables' policies count where they read the column itself: a trip's `status`
    /// that no rule reads, in a table another table's policy reads only for its
    /// `user_id`, became "may give themselves status 'verified'", a privilege, because
    /// a vehicles policy named 'verified' (six made-up DANGERs on a ride-sharing app).
    private static func grantsBeyondItsRow(_ table: String, column: String, value: String, catalog: DraftCatalog) -> Bool {
        (catalog.tablesReadByOtherTablesPolicies.contains(table) && otherTablesRulesRead(column, of: table, catalog: catalog))
            || (catalog.policyExpressions[table] ?? []).contains { $0.contains(value) }
            || (DraftSingledOutValues.namesARole(column: column, type: "text")
                && (catalog.singledOut.comparedWith[column] ?? []).map(DraftOwnership.literal).contains(value))
    }

    /// Whether another table's policies, or the functions they call, name `table` and
    /// its `column` (`exists (select 1 from profiles p where p.id = auth.uid() and
    /// p.role = 'admin')`, `is_admin()` reading `profiles.role`).
    private static func otherTablesRulesRead(_ column: String, of table: String, catalog: DraftCatalog) -> Bool {
        let bare = DraftOwnership.bareName(of: table)
        let texts = Array(catalog.policyExpressions.filter { $0.key != table }.values.joined())
            + Array(catalog.policyHelperBodies.filter { $0.key != table }.values.joined())
        return texts.contains { text in
            text.lowercased().contains(bare) && DraftOwnership.names(column: column, in: text)
        }
    }

    /// The value of `column` that makes its user privileged, as SQL: a role its rules
    /// name among those it may hold, or true for a flag named for a privilege.
    /// Whether `literal` occurs in `expressions`, and each time inside a parenthesised
    /// group that a NOT opens (`(NOT (EXISTS ( SELECT ... 'guest'::text ...)))`).
    static func namedOnlyUnderNot(_ literal: String, in expressions: [String]) -> Bool {
        var seen = false
        for expression in expressions {
            let characters = Array(expression)
            let target = Array(literal)
            var opens: [Bool] = []  // per open parenthesis: whether a NOT precedes it
            var index = 0
            while index < characters.count {
                if characters[index] == "'" {
                    var end = index + 1
                    while end < characters.count {
                        if characters[end] == "'" {
                            if end + 1 < characters.count, characters[end + 1] == "'" { end += 2; continue }
                            break
                        }
                        end += 1
                    }
                    if Array(characters[index...min(end, characters.count - 1)]) == target {
                        seen = true
                        if !opens.contains(true) { return false }
                    }
                    index = end + 1
                    continue
                }
                if characters[index] == "(" {
                    let before = String(characters[max(0, index - 4)..<index]).uppercased()
                    opens.append(before.hasSuffix("NOT ") || before.hasSuffix("NOT"))
                } else if characters[index] == ")" {
                    _ = opens.popLast()
                }
                index += 1
            }
        }
        return seen
    }

    /// Whether a policy's expression, or a function a policy calls, names `column` as a word.
    private static func policiesRead(_ column: String, _ catalog: DraftCatalog) -> Bool {
        let texts = Array(catalog.policyExpressions.values.joined()) + Array(catalog.policyHelperBodies.values.joined())
        return texts.contains { DraftOwnership.names(column: column.lowercased(), in: $0.lowercased()) }
    }

    /// Whether a name or value speaks of an admin's review (`verification_status`,
    /// `approval`, 'verified', 'approved').
    static func namesAReview(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.contains("verif") || lowered.contains("approv")
    }

    /// Whether a policy compares `column` with `value` (`verification_status = 'verified'`).
    private static func policiesCompare(_ column: String, with value: String, _ catalog: DraftCatalog) -> Bool {
        catalog.policyExpressions.values.joined().contains { expression in
            DraftOwnership.names(column: column, in: expression) && expression.contains(DraftOwnership.literal(value))
        }
    }

    /// Among the values the rules name, one no user holds for the asking comes first:
    /// not the column's default, nor a value the sign-up's triggers give every new user
    /// ('member': checked in its place, a made-up promotion to what everyone is).
    static func privilegedValue(of column: DraftCatalog.Column, catalog: DraftCatalog) -> String? {
        if column.category == "B" {
            let name = column.name.lowercased()
            let named = ["admin", "staff", "moderator", "superuser", "super_user"].contains { name.contains($0) }
                // A standing an admin grants (`verified`, `is_approved`) where a policy reads
                // it (`p.verified = true` gating a verified-only lounge: any user verified
                // themselves, and nothing said so; a social app).
                || (["verified", "approved"].contains { name.contains($0) } && policiesRead(column.name, catalog))
            return named && !column.defaultsToTrue ? "true" : nil
        }
        // A review status an admin sets (`verification_status = 'verified'` showing a
        // listing to everyone), where a policy compares it with that value: the owner's
        // own update policy left it open, and any user approved their own listing
        // unseen (a ride-sharing app's vehicles).
        if ["S", "E"].contains(column.category), column.reference == nil, Self.namesAReview(column.name),
           let value = (column.labels + (column.allowedValues ?? [])).first(where: Self.namesAReview),
           policiesCompare(column.name, with: value, catalog), column.defaultExpression?.hasPrefix(DraftOwnership.literal(value)) != true {
            return DraftOwnership.literal(value)
        }
        guard column.holdsRole, column.reference == nil, ["S", "E"].contains(column.category) else { return nil }
        let listed = column.labels + (column.allowedValues ?? [])
        // A free-text column named for a role (`role text default 'employee'`): the
        // values the rules compare it with (`is_admin()`: `role = 'admin'`; no check was
        // made, and any user could make themselves an administrator unseen). Not any
        // free-text column of such a table: `type`, `status` and `visibility` compared
        // somewhere were made-up promotions.
        let freeTextRole = listed.isEmpty && column.category == "S"
            && DraftSingledOutValues.namesARole(column: column.name, type: column.typeName)
        // Not a value the policies name only under a NOT (`not exists (... p.kind =
        // 'guest' and <a daily count>)`): it restricts its holder, and "may set their own
        // kind to 'guest', a privilege" was a made-up DANGER (a chat app).
        let policies = Array(catalog.policyExpressions.values.joined())
        let named = (freeTextRole
            ? catalog.singledOut.comparedWith[column.name] ?? []
            : listed.filter(catalog.singledOut.literals.contains))
            .filter { !Self.namedOnlyUnderNot(DraftOwnership.literal($0), in: policies) }
        let everyones = { (value: String) in
            let quoted = DraftOwnership.literal(value)
            return catalog.signUpTriggerBodies.contains(quoted.lowercased()) || column.defaultExpression?.hasPrefix(quoted) == true
        }
        // A value every user holds anyway (the column's default, what the sign-up gives)
        // is no privilege to gain: "may give themselves status 'setup'", a tournament's
        // default state that opens its registration, was a made-up DANGER.
        // The strongest by its name (it tried the first the rules named: "may give
        // themselves role 'helper'", where the same insert gave 'admin', which rewrote
        // every user's roles; round thirty-eight); of those, one the policies (or the
        // functions they call) name before one only other functions name. Ties keep their order.
        func rank(_ value: String) -> (Int, Int) {
            (DraftSingledOutValues.privilegeRank(value), catalog.singledOut.ruleLiterals.contains(value) ? 0 : 1)
        }
        return named.filter { !everyones($0) }.min { rank($0) < rank($1) }.map(DraftOwnership.literal)
    }
}
