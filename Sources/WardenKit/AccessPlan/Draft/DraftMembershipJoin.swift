/// A drafted check that the first signed-in persona cannot join a row of the other's
/// through a membership table (`members (group_id -> groups, user_id -> auth.users)`):
/// an insert of the persona's own membership naming a row the other persona is a member
/// of. The matrix cannot say it: by the table's owner rule (`user_id = auth.uid()`) such
/// a row is the persona's own, so `insert: own` held while any user could join any
/// group and read its posts (a team-notes app, a classes app).
///
/// The row joined is found by the admin in the check's `before` SQL (the setup's keys
/// differ every run) and handed to the persona's insert in a setting of the check's
/// savepoint. The observation runs the check expecting the insert to go through; the
/// draft keeps it with what was observed: one row (a DANGER) or 42501.
struct DraftMembershipJoin {
    let table: String
    let parent: String
    let check: CustomCheck

    /// The setting that carries the joined row's key from `before` to the insert.
    static let setting = "pgwarden.join_target"

    /// One check per exposed membership table whose parent is exposed too, as the first
    /// signed-in persona joining the second's row; none without two signed-in personas.
    /// `exposed`: each exposed table's name quoted as SQL (as a foreign key names it,
    /// `public."Trip Log"`) -> its qualified name.
    static func checks(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftMembershipJoin] {
        let users = personas.filter { $0.user != nil }
        guard users.count >= 2, let joiner = users.first, let joinerEmail = joiner.user?.email,
              let memberEmail = users[1].user?.email else { return [] }
        return exposed.sorted(by: { $0.value < $1.value }).compactMap { quoted, table in
            guard let membership = ownership.membershipColumns(of: table), let parent = exposed[membership.parent] else { return nil }
            let (row, user) = (DraftOwnership.sqlName(membership.rowColumn), DraftOwnership.sqlName(membership.userColumn))
            let target = "current_setting('\(setting)')::\(membership.rowType)"
            var sample = ownership.sample(of: table).filter { $0.column != membership.rowColumn && $0.column != membership.userColumn }
            sample = [(membership.rowColumn, target), (membership.userColumn, "auth.uid()")] + sample
            let before = """
                select set_config('\(setting)', coalesce((select m.\(row)::text from \(quoted) m join auth.users u on u.id = m.\(user)
                  where u.email = \(DraftOwnership.literal(memberEmail)) and m.\(row) is not null
                    and not exists (select 1 from \(quoted) x join auth.users v on v.id = x.\(user)
                                    where v.email = \(DraftOwnership.literal(joinerEmail)) and x.\(row) = m.\(row))
                  order by m.ctid limit 1), ''), true)
                """
            var expectation = Expectation()
            expectation.rowCount = 1
            let check = CustomCheck(
                name: "\(joiner.name) joins a \(parent) row of \(users[1].name)'s through \(table)",
                persona: joiner.name,
                sql: "insert into \(quoted) (\(sample.map { DraftOwnership.sqlName($0.column) }.joined(separator: ", "))) "
                    + "values (\(sample.map(\.expression).joined(separator: ", ")))",
                before: before, verify: nil, expectation: expectation, line: 0)
            return DraftMembershipJoin(table: table, parent: parent, check: check)
        }
    }

    /// The check as the observation saw it: kept with one row expected (the persona
    /// joined: `dangerous`), or SQLSTATE 42501 (refused); nil when the run showed
    /// neither (no row of the other persona's to join, a value the insert broke).
    func observed(_ result: ProbeResult?) -> (check: CustomCheck, dangerous: Bool)? {
        guard let result else { return nil }
        if result.passed { return (check, true) }
        guard result.observed.hasPrefix("failed: 42501") else { return nil }
        var refused = check
        refused.expectation = Expectation()
        refused.expectation.sqlState = "42501"
        return (refused, false)
    }

    /// The DANGER of a join that went through.
    var danger: String {
        "a signed-in user may join another user's \(parent) rows through \(table) "
            + "(an insert of the user's own membership naming another user's row went through)"
    }
}
