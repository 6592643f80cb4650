import Foundation

extension DraftCatalog {
    /// A group column without a foreign key (`recipes.team_id uuid not null`, no
    /// `references`) that a policy passes to a helper reading the user
    /// (`public.in_team(team_id)`): taken to reference the table it is named for
    /// (`teams (id)`, a key of its type), so that the setup gives each persona's rows the
    /// persona's own group. Left without, the setup gave it a random uuid, no persona
    /// owned a row, and the table's and its children's cells were "none" where members
    /// may read and write them (a device fleet's pods, round thirty-five).
    mutating func referUnkeyedGroupColumns() {
        for (table, tableColumns) in columns {
            for (index, column) in tableColumns.enumerated() where column.reference == nil && !column.uniqueAlone {
                let name = column.name.lowercased()
                guard name.hasSuffix("_id"), name.count > 3, passedToAUserReadingCall(column.name, in: table),
                      let target = tableNamed(for: String(name.dropLast(3)), near: table, keyType: column.typeName)
                else { continue }
                columns[table]?[index].reference = (target, "id")
            }
        }
    }

    /// Whether a policy of `table` passes `column` to one of `userReadingCalls`
    /// (`public.in_team(team_id)`, `is_member(org_id, auth.uid())`), or to any function
    /// beside the user's id (`owns_venue(auth.uid(), venue_id)`: a helper that is told
    /// the user; left without, a venue's slots had random venues, and the draft failed
    /// six of its own probes; round thirty-six).
    private func passedToAUserReadingCall(_ column: String, in table: String) -> Bool {
        let spelled = NSRegularExpression.escapedPattern(for: DraftOwnership.sqlName(column))
        let user = #"(?:auth\.uid\(\)|\(\s*SELECT\s+auth\.uid\(\)\s+AS\s+uid\s*\))"#
        let besideTheUser = #"\(\s*"# + user + #"\s*,\s*"# + spelled + #"\s*[,)]|[(,]\s*"# + spelled + #"\s*,\s*"# + user + #"\s*[,)]"#
        return (policyExpressions[table] ?? []).contains { expression in
            expression.range(of: besideTheUser, options: [.regularExpression, .caseInsensitive]) != nil
                || userReadingCalls.contains { call in
                    expression.contains(call) && expression.range(
                        of: NSRegularExpression.escapedPattern(for: call) + #"(?:[^()]*,)?\s*"# + spelled + #"\s*[,)]"#,
                        options: .regularExpression) != nil
                }
        }
    }

    /// The table named for `stem` (`team`: `teams`, `teames`, `team`), in `table`'s
    /// schema first, whose `id` is of `keyType`; nil when none is.
    private func tableNamed(for stem: String, near table: String, keyType: String) -> String? {
        let schema = String(table.split(separator: ".").first ?? "")
        let names = [stem + "s", stem + "es", stem]
        let candidates = columns.keys.filter { candidate in
            candidate != table && names.contains(String(candidate.split(separator: ".").last ?? "").lowercased())
                && (columns[candidate] ?? []).contains { $0.name == "id" && $0.typeName == keyType }
        }
        return candidates.first { $0.hasPrefix(schema + ".") } ?? candidates.sorted().first
    }
}
