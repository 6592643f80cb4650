/// What `status` says about order: where a folder's own order (file names) differs
/// from numeric order, and pending migrations that come before applied ones. Applied
/// history is never reordered: such a pending migration applies after them.
package enum MigrationOrderNotes {
    package static func lines(_ directory: MigrationDirectory, records: [MigrationRecord]) -> [String] {
        [orderDifference(directory), outOfOrderPending(directory, records: records)].compactMap { $0 }
    }

    /// One line when file-name order and numeric order differ, naming the first place.
    static func orderDifference(_ directory: MigrationDirectory) -> String? {
        guard directory.order == .fileName else { return nil }
        let files = directory.files
        let inversions = zip(files, files.dropFirst()).filter { $1.version < $0.version }
        guard let first = inversions.first else { return nil }
        let more = inversions.count > 1 ? " (and \(inversions.count - 1) more place\(inversions.count == 2 ? "" : "s"))" : ""
        return "order: file-name order, as the Supabase CLI and dbmate apply this folder: \(first.0.fileName) "
            + "applies before \(first.1.fileName), although numeric order of the versions would put it after\(more)"
    }

    /// One line per pending file that comes before the last applied one.
    static func outOfOrderPending(_ directory: MigrationDirectory, records: [MigrationRecord]) -> String? {
        let applied = Set(records.filter { $0.state == .applied }.compactMap(\.parsedVersion))
        guard let lastApplied = directory.files.lastIndex(where: { applied.contains($0.version) }) else { return nil }
        let early = directory.files[..<lastApplied].filter { !applied.contains($0.version) }
        guard !early.isEmpty else { return nil }
        let names = early.map(\.fileName).joined(separator: ", ")
        return "out of order: \(names) \(early.count == 1 ? "is" : "are") pending but come\(early.count == 1 ? "s" : "") "
            + "before \(directory.files[lastApplied].fileName), which is applied; `up` applies "
            + "\(early.count == 1 ? "it" : "them") after the applied ones (history is never reordered; "
            + "`supabase db push` asks for --include-all here)"
    }
}
