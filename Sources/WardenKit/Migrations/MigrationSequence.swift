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
