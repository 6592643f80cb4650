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
