/// The parent rows in the state a child's write policy asks for (`DraftParentStates`):
/// the child's sample naming the persona's row in that state (`rows(table:...)` makes
/// one more per persona with `extraRow`).
extension DraftOwnership {
    /// `expression`, the value of `column` of `table`, preferring the persona's own
    /// parent row in the state `table`'s write policies ask of it (`coalesce` of that
    /// row, then `expression`); `expression` itself where they ask none, or where the
    /// parent's rows are no one's.
    func preferringRequiredState(_ expression: String, of column: DraftCatalog.Column, in table: String) -> String {
        guard let reference = column.reference,
              case let state = catalog.parentStates.values(child: table, parent: reference.table), !state.isEmpty,
              let own = ownedThroughKeys(reference.table, alias: "x", depth: 1) else { return expression }
        let conditions = [own] + state.map { "x.\(Self.sqlName($0.column)) = \($0.value)" }
        return "coalesce((select x.\(Self.sqlName(reference.column)) from \(reference.table) x where "
            + conditions.joined(separator: " and ") + " order by x.ctid desc limit 1), \(expression))"
    }

    /// The start of an ORDER BY putting first the rows of `parent` (named `alias`) in
    /// the state `child`'s write policies ask of it (`(p.status = 'completed') desc, `),
    /// or nothing: the other user's row a check writes into is then one the policy would
    /// take for the writer's own (with ben's pending order, ava's review of it was refused
    /// for the order's state, not for whose it was).
    func stateFirst(of parent: String, askedBy child: String, alias: String) -> String {
        let state = catalog.parentStates.values(child: child, parent: parent)
        guard !state.isEmpty else { return "" }
        return "coalesce(" + state.map { "\(alias).\(Self.sqlName($0.column)) = \($0.value)" }.joined(separator: " and ")
            + ", false) desc, "
    }
}
