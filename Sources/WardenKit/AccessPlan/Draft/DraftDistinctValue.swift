/// The value a drafted setup row gives a column of a unique key (the primary key, a
/// unique constraint or index), different for each signed-in persona, so that both
/// personas' rows fit: a text key `'Draft id ' || n` (an e-mail column `'draft' || n ||
/// '@example.com'`), the n-th value a check lists,
/// a number key one above the table's largest, a date n days on, `'draft n'` as bytes
/// (a unique hash), where `n` numbers
/// the personas (1, 2).
///
/// The setup makes the rows with one `insert ... select ... from auth.users u`, so
/// `n` is `row_number() over (order by u.email)`.
enum DraftDistinctValue {
    static let personaNumber = "row_number() over (order by u.email)"

    /// The per-persona value for `column` of `quotedTable`, or nil when it is in no
    /// unique key, its sample already differs per persona (`gen_random_uuid()`, a row
    /// of the persona's) or no value of its type can be made to differ.
    static func expression(for column: DraftCatalog.Column, quotedTable: String) -> String? {
        guard column.unique, column.reference == nil, column.firstLabel == nil else { return nil }
        if let allowed = column.allowedValues {
            // A check's list: the n-th value it allows, when it allows two.
            guard allowed.count > 1 else { return nil }
            return "(array[\(allowed.prefix(2).map(DraftOwnership.literal).joined(separator: ", "))])[\(personaNumber)]"
        }
        switch (column.category, column.typeName) {
        case ("S", _):
            if let checked = column.checkedText {
                // A text its checks accept for each persona's number (`DraftCheckedText`).
                let tail = checked.tail.isEmpty ? "" : " || \(DraftOwnership.literal(checked.tail))"
                return "\(DraftOwnership.literal(checked.head)) || \(personaNumber)\(tail)"
            }
            if DraftOwnership.namesAnEmail(column) { return "'draft' || \(personaNumber) || '@example.com'" }
            // The sample's words, shortened so the number still fits a varchar(n).
            let words = "Draft \(column.name) "
            let text = column.maxLength.map { String(words.prefix(max(0, $0 - 1))) } ?? words
            return text.isEmpty ? "\(personaNumber)::text" : "\(DraftOwnership.literal(text)) || \(personaNumber)"
        case ("N", _):
            let name = DraftOwnership.sqlName(column.name)
            return "(select coalesce(max(\(name)), 0) from \(quotedTable)) + \(personaNumber)"
        case ("D", "date") where column.startOfPeriod != nil:
            // The start of the persona's own period: the n-th month (week, ...) after this one's.
            let unit = column.startOfPeriod ?? "month"
            let step = unit == "quarter" ? "3 months" : "1 \(unit)"
            return "(date_trunc('\(unit)', current_date) + \(personaNumber) * interval '\(step)')::date"
        case ("D", "date"):
            return "current_date + \(personaNumber)::int"
        case ("D", "timestamp"), ("D", "timestamptz"):
            return "now() + \(personaNumber) * interval '1 day'"
        case ("B", _):
            return "\(personaNumber) = 2"
        case (_, "bytea"):
            // A unique hash (`api_keys.key_hash`): one value for both dropped ben's row.
            return "convert_to('draft ' || \(personaNumber), 'UTF8')"
        case (_, "interval"):
            return "\(personaNumber) * interval '1 day'"
        default:
            return nil
        }
    }
}
