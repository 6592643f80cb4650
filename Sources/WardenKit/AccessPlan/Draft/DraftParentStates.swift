import Foundation

/// The state of a parent row that a child table's write policy asks for: `reviews`'
/// insert `with check (exists (select 1 from orders o where o.id = order_id and
/// o.buyer_id = auth.uid() and o.status = 'completed'))`, or a boolean parent column
/// tested as true (`p.is_open`).
///
/// The draft's setup left every parent row as its defaults made it (`status default
/// 'pending'`), so no persona had a completed order, and ava's and ben's inserts of a
/// review were refused: "none", where a buyer reviews each completed order (a
/// marketplace; round thirty-eight). Now each persona gets one more parent row in that
/// state (`DraftOwnership.stateRows`), and the child's sample names it
/// (`DraftOwnership.preferringRequiredState`), so the cell shows what a real client
/// with such an order may do. The persona's other rows keep their defaults, so a policy
/// that reads the default state (`update ... using (status = 'pending')`) is probed
/// as before.
///
/// Read from the policies' WITH CHECK text as `pg_get_expr` writes it with an empty
/// search_path (`FROM public.orders o WHERE ... (o.status = 'completed'::text)`). A
/// subquery under NOT (`not exists (... o.status = 'cancelled')`) asks for the opposite,
/// so such an expression is left alone.
struct DraftParentStates {
    /// A parent column and the value, as SQL, a child's write asks it to hold.
    struct Value: Equatable {
        var column: String
        var value: String
    }

    /// Child table -> parent table -> the values its write policies ask of the parent.
    private(set) var byChild: [String: [String: [Value]]] = [:]

    init() {}

    /// `withChecks`: table -> its policies' WITH CHECK expressions; `columns`: every
    /// table's columns (a child must have a foreign key to the parent; a value must be
    /// one the parent's column may hold and not already its default).
    init(withChecks: [String: [String]], columns: [String: [DraftCatalog.Column]]) {
        for (child, expressions) in withChecks {
            let parents = Set((columns[child] ?? []).compactMap { $0.reference?.table }).subtracting([child, "auth.users"])
            guard !parents.isEmpty else { continue }
            for expression in expressions where !Self.negatesASubquery(expression) {
                for (parent, qualifier) in Self.tablesRead(in: expression) where parents.contains(parent) {
                    for value in Self.values(of: columns[parent] ?? [], qualifiedBy: qualifier, in: expression)
                    where !(byChild[child]?[parent] ?? []).contains(where: { $0.column == value.column }) {
                        byChild[child, default: [:]][parent, default: []].append(value)
                    }
                }
            }
        }
    }

    /// The values `child`'s write policies ask of its parent `parent`'s row.
    func values(child: String, parent: String) -> [Value] {
        byChild[child]?[parent] ?? []
    }

    /// Each distinct state any child asks of `parent`'s rows, in a stable order.
    func states(of parent: String) -> [[Value]] {
        var states: [[Value]] = []
        for child in byChild.keys.sorted() {
            if let state = byChild[child]?[parent], !states.contains(state) { states.append(state) }
        }
        return states
    }

    /// `NOT (EXISTS`, `NOT EXISTS`, `NOT (... IN (SELECT`: the subquery's condition is
    /// one the parent must not meet.
    private static func negatesASubquery(_ expression: String) -> Bool {
        expression.range(of: #"\bNOT\s*\(*\s*(?:EXISTS|[^()]*\bIN\s*\(\s*SELECT)"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    /// The tables a subquery of `expression` reads, each with what its columns are
    /// qualified by: its alias, else its bare name (`FROM public.orders o` -> ("public.orders", "o")).
    static func tablesRead(in expression: String) -> [(table: String, qualifier: String)] {
        let name = #"("[^"]+"|[A-Za-z_][A-Za-z0-9_$]*)"#
        let keywords: Set<String> = ["where", "join", "on", "left", "right", "inner", "full", "cross", "group", "order", "limit", "natural", "using"]
        guard let regex = try? NSRegularExpression(
            pattern: #"\b(?:FROM|JOIN)\s+"# + name + #"\s*\.\s*"# + name + #"(?:\s+(?:AS\s+)?"# + name + ")?",
            options: [.caseInsensitive]) else { return [] }
        return regex.matches(in: expression, range: NSRange(expression.startIndex..., in: expression)).compactMap { match in
            func group(_ index: Int) -> String? {
                Range(match.range(at: index), in: expression).map { DraftOwnership.unquoted(String(expression[$0])) }
            }
            guard let schema = group(1), let table = group(2) else { return nil }
            let alias = group(3).flatMap { keywords.contains($0.lowercased()) ? nil : $0 }
            return ("\(schema).\(table)", alias ?? table)
        }
    }

    /// The values `expression` compares the columns of a table qualified by `qualifier`
    /// with: a text or enum column with a literal (`o.status = 'completed'::text`, the
    /// first of `= ANY (ARRAY['completed'::text, ...])`), a boolean tested as true
    /// (`p.is_open`, `p.is_open = true`). Not a user's role, a foreign key, or a column
    /// whose default already holds the value; a listed value only among those listed.
    private static func values(of columns: [DraftCatalog.Column], qualifiedBy qualifier: String, in expression: String) -> [Value] {
        let prefix = #"(?<![\w".])"# + NSRegularExpression.escapedPattern(for: DraftOwnership.sqlName(qualifier)) + #"\."#
        return columns.compactMap { column in
            guard column.writable, column.reference == nil, !column.holdsRole else { return nil }
            let name = prefix + NSRegularExpression.escapedPattern(for: DraftOwnership.sqlName(column.name))
            guard expression.range(of: name, options: .regularExpression) != nil else { return nil }
            if column.category == "B" {
                let tested = #"(?<!NOT )(?<!NOT \()"# + name + #"(?:\s*=\s*true)?(?=\s*(?:\)|AND\b|OR\b|$))"#
                guard !column.defaultsToTrue, expression.range(of: tested, options: .regularExpression) != nil else { return nil }
                return Value(column: column.name, value: "true")
            }
            guard ["S", "E"].contains(column.category),
                  let literal = firstLiteral(comparedWith: name, in: expression) else { return nil }
            let listed = column.labels + (column.allowedValues ?? [])
            guard listed.isEmpty || listed.contains(literal) else { return nil }
            let value = DraftOwnership.literal(literal)
            if column.defaultExpression?.hasPrefix(value) == true { return nil }
            return Value(column: column.name, value: value)
        }
    }

    /// The first literal `expression` compares the column `name` (a pattern) with.
    private static func firstLiteral(comparedWith name: String, in expression: String) -> String? {
        let literal = #"'((?:[^']|'')*)'"#
        let pattern = name + #"\s*(?:=\s*|=\s*ANY\s*\(\s*ARRAY\s*\[\s*)"# + literal
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
              let match = regex.firstMatch(in: expression, range: NSRange(expression.startIndex..., in: expression)),
              let range = Range(match.range(at: 1), in: expression) else { return nil }
        return expression[range].replacingOccurrences(of: "''", with: "'")
    }
}
