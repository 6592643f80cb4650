import Foundation

extension FunctionCallProbe {
    /// A value a check allows for the column the body sets from the text parameter
    /// `name` (`set status = p_status`, `status in ('open', 'resolved', 'closed')`), of
    /// a table the body names: the check's last, as a literal; nil when the body sets
    /// no such column. Called with 'pgwarden', the check refused the update (23514), and
    /// anon setting any ticket's status through a definer function stayed a WARN (round
    /// thirty-five).
    func checkedValue(assignedFrom name: String, in body: String) -> String? {
        columns(comparedWith: name, in: body).lazy.compactMap { $0.column.allowedValues?.last }.first
            .map(DraftOwnership.literal)
    }

    /// A value a row holds in the text column the body looks the parameter `name` up by
    /// (`select id into v from badges where code = p_code`), of a table the body names,
    /// as a signed-in persona reads it: 'pgwarden' matched no badge, and anon awarding
    /// any user any badge through `grant_badge(p_user, p_code)` stayed a WARN (round
    /// thirty-five). Only a value any user may read (anyone may sign up): a code kept
    /// from users (an invitation's) is the key the function asks for, not one to give.
    /// nil when no such row or column is, or no persona is signed in.
    func storedValue(comparedWith name: String, in body: String) -> String? {
        guard let reader = context.userName else { return nil }
        for (table, column) in columns(comparedWith: name, in: body) where column.category == "S" {
            let sqlColumn = DraftOwnership.sqlName(column.name)
            let read = "select \(sqlColumn)::text from \(Self.quoted(table)) where \(sqlColumn) is not null order by ctid limit 1"
            if case .rows(let rows)? = try? context.asPersona(reader, "GET", on: finding, read),
               let value = rows.first?.first ?? nil {
                return DraftOwnership.literal(value)
            }
        }
        return nil
    }

    /// The columns the body sets from, or compares with, the parameter `name` (`status =
    /// p_status`), of the tables the body names, by table name.
    private func columns(comparedWith name: String, in body: String) -> [(table: String, column: DraftCatalog.Column)] {
        guard !name.isEmpty, let ownership else { return [] }
        let parameter = NSRegularExpression.escapedPattern(for: name)
        guard let regex = try? NSRegularExpression(
            pattern: #"(?<![\w$])"?([A-Za-z_][\w$]*)"?\s*=\s*"# + parameter + #"(?![\w"$])"#, options: [.caseInsensitive])
        else { return [] }
        let compared = Set(regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap { match in
            Range(match.range(at: 1), in: body).map { body[$0].lowercased() }
        })
        guard !compared.isEmpty else { return [] }
        let lowered = body.lowercased()
        return ownership.catalog.columns.sorted { $0.key < $1.key }.flatMap { table, columns in
            lowered.contains(String(table.split(separator: ".").last ?? "").lowercased())
                ? columns.filter { compared.contains($0.name.lowercased()) }.map { (table, $0) } : []
        }
    }
}
