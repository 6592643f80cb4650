import Foundation

extension FunctionCallProbe {
    /// A value a check allows for the column the body sets from the text parameter
    /// `name` (`set status = p_status`, `status in ('open', 'resolved', 'closed')`), of
    /// a table the body names: the check's last, as a literal; nil when the body sets
    /// no such column. Called with 'pgwarden', the check refused the update (23514), and
    /// anon setting any ticket's status through a definer function stayed a WARN (round
    /// thirty-five).
    func checkedValue(assignedFrom name: String, in body: String) -> String? {
        guard !name.isEmpty, let ownership else { return nil }
        let parameter = NSRegularExpression.escapedPattern(for: name)
        guard let regex = try? NSRegularExpression(
            pattern: #"(?<![\w$])"?([A-Za-z_][\w$]*)"?\s*=\s*"# + parameter + #"(?![\w"$])"#, options: [.caseInsensitive])
        else { return nil }
        let assigned = Set(regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap { match in
            Range(match.range(at: 1), in: body).map { body[$0].lowercased() }
        })
        guard !assigned.isEmpty else { return nil }
        let lowered = body.lowercased()
        let candidates = ownership.catalog.columns.sorted { $0.key < $1.key }.flatMap { table, columns in
            columns.filter { assigned.contains($0.name.lowercased()) && !($0.allowedValues ?? []).isEmpty }
                .map { (table: table, values: $0.allowedValues ?? []) }
        }
        // Of the tables the body names.
        return candidates.first { lowered.contains(String($0.table.split(separator: ".").last ?? "").lowercased()) }?
            .values.last.map(DraftOwnership.literal)
    }
}
