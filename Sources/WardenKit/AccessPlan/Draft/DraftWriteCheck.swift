/// A drafted check of a write of the first signed-in persona's own rows that the
/// matrix cannot speak for: joining the other persona's group through a membership
/// table (`DraftWriteCheck.joins`), writing into the other's conversation, list or
/// project (`DraftWriteCheck.parentRowWrites`), or giving itself a privilege the
/// project's rules read (`DraftWriteCheck.selfPromotions`). By the table's owner rule
/// (`user_id = auth.uid()`, `sender = auth.uid()`) each such row is the persona's own,
/// so `insert: own` held while any user could join any group and read its posts (a
/// team-notes app, a classes app), and `update: own` while any user made themselves an
/// administrator.
///
/// A row named is found by the admin in the check's `before` SQL (the setup's keys
/// differ every run) and handed to the persona's write in a setting of the check's
/// savepoint. The observation runs the check expecting the write to go through; the
/// draft keeps it with what was observed: one row (a DANGER), or its refusal.
struct DraftWriteCheck {
    /// The table written.
    let table: String
    var check: CustomCheck
    /// What a write that went through means.
    let danger: String
    /// A table whose other users' rows the persona must not see for the check to be
    /// kept (a comment on a post everyone reads is no danger); nil: kept either way.
    var hiddenParent: String? = nil
    /// A table the persona must have an own row of for the check to be kept (an
    /// update of no row proves nothing); nil: kept either way.
    var needsOwnRow: String? = nil
    /// The refusals kept as the check's expectation: SQLSTATEs, and whether no row
    /// written is one (an update whose policy's USING hides the row).
    var refusals: Set<String> = ["42501"]
    var noRowRefuses = false
    /// The check (by name) whose DANGER this one's joins where both went through: an
    /// update moving an own row into the parent an insert already wrote into is one
    /// hole, said once (a 125-table project had 79 such pairs, each two DANGER lines).
    var sameHoleAs: String? = nil
    /// Admin SQL true where what the check's `verify` looks for is absent: where the
    /// verify came out false, the check is kept with this one instead (refused).
    var absentVerify: String? = nil
    /// The check's name where it is kept with `absentVerify` (what it then proves: "...
    /// does not get role 'admin'", where the name of the attempt read as its success).
    var absentName: String? = nil
    /// Made by a new user's sign-up (`signUpMetadataGrants`): no DANGER where the
    /// project turns sign-ups off (`PlanDrafter.signUpsEnabled`).
    var bySignUp = false

    /// The setting that carries the named row's key from `before` to the insert.
    static let setting = "pgwarden.join_target"

    /// The check `name` of an insert as `writer` into `table` (`quotedTable`) of
    /// `sample`, whose column `column` (of type `type`) names the row `target` (admin SQL,
    /// one value or none) selects; `danger`: what an insert that went through means.
    /// `unlessReadable`: the named row's table and key column; the insert then writes
    /// nothing where the writer can read that row (the check goes, as a write into a
    /// row the writer reads is the app working).
    static func insert(
        _ name: String, writer: Persona, into table: String, quotedTable: String,
        sample: [(column: String, expression: String)], naming column: String, type: String, target: String,
        danger: String, unlessReadable: (table: String, column: String)? = nil
    ) -> DraftWriteCheck {
        let values = [(column, "current_setting('\(setting)')::\(type)")] + sample.filter { $0.column != column }
        let into = "insert into \(quotedTable) (\(values.map { DraftOwnership.sqlName($0.0) }.joined(separator: ", "))) "
        let sql = unlessReadable.map { parent in
            into + "select \(values.map(\.1).joined(separator: ", ")) where not exists (select 1 from \(parent.table) p "
                + "where p.\(DraftOwnership.sqlName(parent.column))::text = current_setting('\(setting)'))"
        } ?? into + "values (\(values.map(\.1).joined(separator: ", ")))"
        let check = before(expectingOneRow(name, writer: writer, sql: sql), target: target)
        return DraftWriteCheck(table: table, check: check, danger: danger)
    }

    /// `check` with the admin's `before` SQL handing it the key `target` selects (in `setting`).
    static func before(_ check: CustomCheck, target: String) -> CustomCheck {
        var check = check
        check.before = "select set_config('\(setting)', coalesce((\(target)), ''), true)"
        return check
    }

    /// The check `name` of `sql` as `writer` (after the admin's `before`), expecting the
    /// write to go through: one row.
    static func expectingOneRow(_ name: String, writer: Persona, sql: String, before: String? = nil) -> CustomCheck {
        var expectation = Expectation()
        expectation.rowCount = 1
        return CustomCheck(
            name: name, persona: writer.name, sql: sql, before: before, verify: nil, expectation: expectation, line: 0)
    }

    /// This check, made to prove that its update changed `column` of the writer's rows
    /// (those whose `owner` names the user with `writerEmail`), not only that it touched a
    /// row: a BEFORE UPDATE trigger putting the value back (`new.role := old.role`) let the
    /// update count one row and change nothing, and "may set their own role to 'admin'"
    /// was a made-up DANGER (a classes app; round thirty-nine). The admin's `before` keeps
    /// the column's values, `verify` asks that they changed; where they did not, the
    /// check is kept expecting them unchanged (`absentVerify`), named for that.
    func provingTheChange(of column: String, in quoted: String, ownedBy owner: String, writerEmail: String) -> DraftWriteCheck {
        let values = "(select coalesce(string_agg(coalesce(r.\(DraftOwnership.sqlName(column))::text, 'null'), ',' "
            + "order by r.\(DraftOwnership.sqlName(column))::text), '') from \(quoted) r "
            + "where r.\(DraftOwnership.sqlName(owner))::text = (select u.id::text from auth.users u "
            + "where u.email = \(DraftOwnership.literal(writerEmail))))"
        var proving = self
        proving.check.before = (check.before.map { $0 + ";\n" } ?? "")
            + "select set_config('\(Self.heldSetting)', \(values), true)"
        proving.check.verify = "select \(values) <> current_setting('\(Self.heldSetting)')"
        proving.absentVerify = "select \(values) = current_setting('\(Self.heldSetting)')"
        proving.absentName = "\(check.name), which keeps its \(column) as it was"
        return proving
    }

    /// The check `name` of an update of the writer's own row of `table` (`sql`) setting
    /// `column`, which its owner column `owner` names: kept as it came out, refused by
    /// 42501, P0001 or no row, where the writer has an own row, and proving the change.
    static func ownRowUpdate(
        _ name: String, writer: Persona, writerEmail: String, sql: String, table: String, quoted: String,
        column: String, owner: String, danger: String
    ) -> DraftWriteCheck {
        DraftWriteCheck(
            table: table, check: expectingOneRow(name, writer: writer, sql: sql), danger: danger,
            needsOwnRow: table, refusals: ["42501", "P0001"], noRowRefuses: true)
            .provingTheChange(of: column, in: quoted, ownedBy: owner, writerEmail: writerEmail)
    }

    /// The setting that carries the writer's values of a column from `before` to `verify`.
    static let heldSetting = "pgwarden.held_values"

    /// The first and second signed-in personas (the writer, and whose row is named),
    /// with their emails; nil without two.
    static func writerAndOther(_ personas: [Persona]) -> (writer: Persona, writerEmail: String, other: Persona, otherEmail: String)? {
        let users = personas.filter { $0.user != nil }
        guard users.count >= 2, let writerEmail = users[0].user?.email, let otherEmail = users[1].user?.email else { return nil }
        return (users[0], writerEmail, users[1], otherEmail)
    }

    /// The check as the observation saw it: kept with one row expected (the persona
    /// wrote it: `dangerous`), or with its refusal (one of `refusals`' SQLSTATEs, or no
    /// row where `noRowRefuses`); nil when the run showed neither (no row of the other
    /// persona's to name, a value the write broke).
    func observed(_ result: ProbeResult?) -> (check: CustomCheck, dangerous: Bool)? {
        guard let result else { return nil }
        if result.passed { return (check, true) }
        var refused = check
        refused.expectation = Expectation()
        // A statement that failed is refused by its error, whatever the verify then found
        // (an update a unique key turned back, 23505, was kept as "1 row, and the row
        // does not hold the value": the draft failed its own run).
        let failed = refusals.first { result.observed.hasPrefix("failed: \($0)") }
        let noRow = noRowRefuses && result.observed.hasPrefix("0 rows, expected 1")
        // (Not where the statement failed otherwise, 23503 say: the verify then found the
        // values kept, but the check would fail its own run expecting the statement to pass.)
        if failed == nil, !noRow, !result.observed.hasPrefix("failed"), let absentVerify,
           result.observed.contains("verify returned f, expected true") {
            refused.expectation = check.expectation
            refused.verify = absentVerify
            refused.name = absentName ?? check.name
            return (refused, false)
        }
        if noRow {
            refused.expectation.rowCount = 0
            if check.verify != nil { refused.verify = absentVerify }
            return (refused, false)
        }
        guard let state = failed else { return nil }
        refused.expectation.sqlState = state
        // What the refused statement left is the row's absence, where the check says it.
        if let absentVerify { refused.verify = absentVerify }
        return (refused, false)
    }
}
