/// The order a migrations folder applies in, as its own tool orders it.
public enum MigrationOrder: String, Sendable {
    /// File-name order (byte order of the names), as the Supabase CLI and dbmate apply
    /// single `<version>_<name>.sql` files: `20230104160241_init.sql` comes before
    /// `202406201411_add_col.sql` although 202406201411 is the smaller number.
    case fileName
    /// Numeric order of the versions, as golang-migrate applies its `.up.sql`/`.down.sql` pairs.
    case numeric

    /// The files in this order (ties, which loading refuses, keep their order).
    func sorted(_ files: [MigrationFile]) -> [MigrationFile] {
        switch self {
        case .fileName: return files.sorted { $0.fileName < $1.fileName }
        case .numeric: return files.sorted { $0.version < $1.version }
        }
    }
}

/// Positions in a folder's order, for comparing versions: two versions with files compare
/// by the files' positions; a version without a file (a history row whose file is gone)
/// compares numerically.
package struct MigrationSequence: Sendable {
    private let positions: [MigrationVersion: Int]

    /// `files` in the folder's order.
    package init(_ files: [MigrationFile]) {
        positions = Dictionary(files.enumerated().map { ($1.version, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// True when `left` applies before `right`.
    package func precedes(_ left: MigrationVersion, _ right: MigrationVersion) -> Bool {
        if let first = positions[left], let second = positions[right] { return first < second }
        return left < right
    }

    /// True when `left` applies before or is `right`.
    package func precedesOrIs(_ left: MigrationVersion, _ right: MigrationVersion) -> Bool {
        left == right || precedes(left, right)
    }
}
