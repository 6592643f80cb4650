import Foundation

extension DraftWriteCheck {
    /// One check per column of a user's own row that a trigger of another table reads
    /// to refuse that user's writes (or a function another table's policy calls), and
    /// that `authenticated` may update: a quota, a
    /// count or a plan (`profiles.bill_quota`, `bills_created`, read by `bills`' BEFORE
    /// INSERT trigger, which raises `BILL_QUOTA_REACHED`). The first signed-in persona
    /// changes it on its own row (`update profiles set bill_quota = coalesce(bill_quota,
    /// 0) + 1000 where id = auth.uid()`): where that goes through, any user lifts their own
    /// limit, which `update: own` cannot say (a bill-splitting app: nothing was flagged).
    /// Only columns named for a limit (quota, limit, count, credits, balance, plan, tier,
    /// usage, ...), so that a trigger reading a display name makes no check. Kept as it
    /// came out, where the persona has an own row.
    static func guardedLimits(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, writerEmail, _, _) = writerAndOther(personas) else { return [] }
        let catalog = ownership.catalog
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            guard let owner = ownership.ownerColumn(of: table) else { return [] }
            let bare = DraftOwnership.bareName(of: table)
            // The guards on other tables that read this table and refuse: a trigger that
            // raises, or a function a policy calls (`with check (... and not
            // is_user_blocked(auth.uid()))`: a blocked user lifted their own block, and
            // nothing said so; a learning app).
            let triggers = catalog.triggerBodies.filter { $0.key != table }.flatMap { other, bodies in
                bodies.filter { $0.contains("raise") && Self.names(bare, in: $0) }
                    .map { LimitGuard(body: $0, reader: "a trigger on \(other)", purpose: "to refuse their writes") }
            }
            let policies = catalog.policyHelperBodies.filter { $0.key != table }.sorted(by: { $0.key < $1.key })
                .flatMap { other, bodies in
                    bodies.filter { Self.names(bare, in: $0) }
                        .map { LimitGuard(body: $0, reader: "a policy on \(other)", purpose: "to refuse their writes") }
                }
            // Or an RPC users call, which raises (`generate()` spending a credit: `update
            // profiles set credits = credits - 1 ... if not found then raise`; an AI app's
            // credits were the user's own to raise; round thirty-eight). Its body must
            // compare the column (`credits > 0`): one returning it beside a caller check
            // "read a profile's `pricing_plan` to refuse their calls".
            // Or one answering whether something is allowed (`can_use_model(user, model)`
            // comparing `subscription_tier = 'pro'`: any user made themselves 'pro' and
            // nothing said so; an AI chat app, round thirty-nine).
            let functions = catalog.guardingFunctionBodies.filter { Self.names(bare, in: $0.body) }
                .map { LimitGuard(body: $0.body, reader: "the function \($0.name)()",
                                  purpose: $0.raises ? "to refuse their calls" : "to decide what they may do", mustCompare: true) }
            let guards = triggers + policies + functions
            guard !guards.isEmpty else { return [] }
            return (catalog.columns[table] ?? []).compactMap { column -> DraftWriteCheck? in
                guard column.name != owner, column.writable, column.signedInMayUpdate, column.reference == nil,
                      Self.namesALimit(column.name),
                      let reader = guards.first(where: { $0.reads(column.name.lowercased()) }),
                      let value = changedValue(of: column) else { return nil }
                return ownRowUpdate(
                    "\(writer.name) changes \(column.name) in a \(table) row of \(writer.name)'s",
                    writer: writer, writerEmail: writerEmail,
                    sql: "update \(quoted) set \(DraftOwnership.sqlName(column.name)) = \(value) "
                        + "where \(DraftOwnership.sqlName(owner)) = auth.uid()",
                    table: table, quoted: quoted, column: column.name, owner: owner,
                    danger: "a signed-in user may change their own \(column.name), which \(reader.reader) reads "
                        + "\(reader.purpose) (an update of the user's own row went through)")
            }
        }
    }

    /// A body that reads a user's own table to refuse them: a trigger's, a policy
    /// helper's, or a function's users call.
    private struct LimitGuard {
        let body: String
        /// Who reads it, as the DANGER says (`a trigger on public.bills`).
        let reader: String
        /// Why it reads it (`to refuse their writes`, `to decide what they may do`).
        let purpose: String
        /// Whether the body must compare a column (`credits > 0`) to read it, not only name it.
        var mustCompare = false

        func reads(_ column: String) -> Bool {
            mustCompare ? DraftWriteCheck.compares(column, in: body) : DraftWriteCheck.names(column, in: body)
        }
    }

    /// Whether `text` compares the column `name` in a condition (`where ... and credits
    /// > 0`, `if v_plan_tier = 'free'`... `then raise`): the name, perhaps qualified,
    /// followed by a comparison.
    fileprivate static func compares(_ name: String, in text: String) -> Bool {
        text.range(of: #"\b(?:where|if|when|and|or)\b[^;]*?(?<![\w"])(?:\w+\.)?"# + NSRegularExpression.escapedPattern(for: name)
                   + #"\s*(?:[<>=!]|is\b|in\b|between\b)"#, options: .regularExpression) != nil
    }

    /// Whether `text` has `word` as a whole word.
    fileprivate static func names(_ word: String, in text: String) -> Bool {
        text.range(of: #"\b"# + NSRegularExpression.escapedPattern(for: word) + #"\b"#, options: .regularExpression) != nil
    }

    /// Whether a column's name says it holds a limit, a count toward one, a plan, or a
    /// restriction (`is_blocked`, `banned`, `suspended`: words, so `banner_url` is none).
    static func namesALimit(_ name: String) -> Bool {
        let lowered = name.lowercased()
        let words = Set(lowered.split(separator: "_").map(String.init))
        return ["quota", "limit", "count", "credit", "balance", "plan", "tier", "usage", "used", "remaining", "max",
                "premium", "subscription", "_created"].contains { lowered.contains($0) }
            || !words.isDisjoint(with: ["blocked", "banned", "suspended", "muted", "restricted", "locked", "disabled"])
    }

    /// SQL for another value of the column than its own: more of a number, the other
    /// boolean, the last value its checks or type list; nil for any other column.
    private static func changedValue(of column: DraftCatalog.Column) -> String? {
        let name = DraftOwnership.sqlName(column.name)
        switch column.category {
        case "N": return "coalesce(\(name), 0) + 1000"
        case "B": return "not coalesce(\(name), false)"
        case "S", "E":
            let values = column.labels + (column.allowedValues ?? [])
            return values.last(where: { column.defaultExpression?.hasPrefix(DraftOwnership.literal($0)) != true })
                .map(DraftOwnership.literal)
        default: return nil
        }
    }
}
