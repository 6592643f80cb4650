import Foundation

extension DraftWriteCheck {
    /// One check per column of a user's own row named for another user's judgement of
    /// it (a grade, a score, marks, points, approved, verified), where a policy lets
    /// someone besides the row's owner update the row (a course's teacher, an admin):
    /// the first signed-in persona sets it on its own row (`update submissions set grade
    /// = 100 where ...`). Where that goes through, a student grades their own work,
    /// which `update: own` cannot say: the owner's policy covers the whole row, and the
    /// teacher's policy is why the column is there (an LMS shape; round thirty-eight's
    /// note, checked in thirty-nine). Where only the owner's policy updates the row, the
    /// value is theirs to set (a self-assessment): no check.
    ///
    /// Only columns `authenticated` may update, with a value to set (a number within
    /// the column's checks, the other boolean, a value its checks list); a privilege the
    /// project's rules read is `selfPromotions`' check. Kept as it came out, where the
    /// persona has an own row.
    static func judgedColumns(ownership: DraftOwnership, exposed: [String: String], personas: [Persona]) -> [DraftWriteCheck] {
        guard let (writer, writerEmail, _, _) = writerAndOther(personas) else { return [] }
        let catalog = ownership.catalog
        return exposed.sorted(by: { $0.value < $1.value }).flatMap { quoted, table -> [DraftWriteCheck] in
            guard let owner = ownership.ownerColumn(of: table),
                  (catalog.updateUsings[table] ?? []).contains(where: { Self.letsAnotherUserUpdate($0, owner: owner) })
            else { return [] }
            return (catalog.columns[table] ?? []).compactMap { column -> DraftWriteCheck? in
                guard column.name != owner, column.writable, column.signedInMayUpdate, column.reference == nil,
                      Self.namesAJudgement(column.name), privilegedValue(of: column, catalog: catalog) == nil,
                      let value = judgedValue(of: column) else { return nil }
                let name = DraftOwnership.sqlName(column.name)
                return ownRowUpdate(
                    "\(writer.name) sets \(column.name) to \(value) in a \(table) row of \(writer.name)'s",
                    writer: writer, writerEmail: writerEmail,
                    sql: "update \(quoted) set \(name) = \(value) where ctid = (select r.ctid from \(quoted) r "
                        + "where r.\(DraftOwnership.sqlName(owner)) = auth.uid() and r.\(name) is distinct from \(value) "
                        + "order by r.ctid limit 1)",
                    table: table, quoted: quoted, column: column.name, owner: owner,
                    danger: "a signed-in user may set \(column.name) to \(value) in their own row, which a policy lets "
                        + "another user update too (an update of the user's own row went through)")
            }
        }
    }

    /// Whether an update policy's USING (pg_get_expr text) lets someone besides the row's
    /// `owner` update it: it does not compare the owner with the user, or it has another
    /// branch (`(student_id = auth.uid()) OR is_admin()`). `true` is every user's, which
    /// the matrix shows already.
    static func letsAnotherUserUpdate(_ using: String, owner: String) -> Bool {
        guard using != "true" else { return false }
        return DraftOwnership.firstCompared(in: [using], among: [owner]) == nil
            || using.range(of: " OR ", options: .caseInsensitive) != nil
    }

    /// Whether a column's name says another user judges the row by it: one of its words
    /// (split at `_`) is a grade, a score, marks, points, or an approval or verification
    /// (`grade`, `final_score`, `is_approved`, `verified`; not `graded_at`'s time, which
    /// has no value to set, nor a review's own `rating`, its author's).
    static func namesAJudgement(_ name: String) -> Bool {
        let words = Set(name.lowercased().split(separator: "_").map(String.init))
        return !words.isDisjoint(with: ["grade", "grades", "score", "scores", "mark", "marks", "points",
                                        "approved", "verified", "certified"])
    }

    /// SQL for the value set: the largest number the column's checks name (100 for
    /// `between 0 and 100`), or 100; the other boolean; the last value its checks or
    /// type list; 'A' for other text. Nil for other types.
    private static func judgedValue(of column: DraftCatalog.Column) -> String? {
        switch column.category {
        case "N": return String(column.highestNumberChecked ?? 100)
        case "B": return column.defaultsToTrue ? "false" : "true"
        case "S", "E":
            let values = column.labels + (column.allowedValues ?? [])
            guard !values.isEmpty else { return column.category == "S" ? DraftOwnership.literal("A") : nil }
            return values.first(where: { column.defaultExpression?.hasPrefix(DraftOwnership.literal($0)) != true })
                .map(DraftOwnership.literal)
        default: return nil
        }
    }
}
