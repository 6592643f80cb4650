/// What a `.sql` file name says: a single-file migration `<version>_<name>.sql`
/// (dbmate, the Supabase CLI), one half of a golang-migrate pair
/// `<version>_<name>.up.sql` / `.down.sql`, or no migration at all (nil).
package struct MigrationFileName: Equatable, Sendable {
    /// Which part of a migration the file holds.
    package enum Role: Sendable {
        /// The whole migration (sections marked by `-- migrate:up` / `-- migrate:down`).
        case whole
        /// A golang-migrate up file.
        case up
        /// A golang-migrate down file.
        case down
    }

    package let version: MigrationVersion
    /// The part after the version and `_`, without `.sql` (and `.up` / `.down`).
    package let name: String
    package let role: Role

    /// Parses a file name; nil when it is not a migration's.
    package init?(_ fileName: String) {
        guard fileName.hasSuffix(".sql"), let underscore = fileName.firstIndex(of: "_"),
            let version = MigrationVersion(String(fileName[..<underscore]))
        else { return nil }
        var name = String(fileName[fileName.index(after: underscore)...].dropLast(4))
        var role = Role.whole
        for (suffix, pairRole) in [(".up", Role.up), (".down", Role.down)] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            role = pairRole
        }
        // As the Supabase CLI reads them (`^([0-9]+)_(.*)\.sql$`, where `.` is any
        // character but a newline): an empty name (`20250101000001_.sql`) or one with
        // spaces is a migration; the CLI applied such files where pgwarden skipped them.
        // A control character (a newline or carriage return could forge output lines) is not.
        guard !name.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7f } == true })
        else { return nil }
        self.version = version
        self.name = name
        self.role = role
    }
}
