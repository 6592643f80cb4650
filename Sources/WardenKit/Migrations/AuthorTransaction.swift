import Foundation

/// A top-level `BEGIN; ... COMMIT;` pair in a marker-less migration (the Supabase
/// CLI's format) or a seed file. Its BEGIN and COMMIT are not sent: the file runs
/// inside pgwarden's transaction (a migration atomic with its history row). But what the author's COMMIT would end
/// must end there too, as with psql and the Supabase CLI: `SET LOCAL`,
/// `set_config(..., true)` and `SET LOCAL ROLE` made inside the pair do not outlive it.
///
/// At the BEGIN the session's settings, the role, and the custom settings the pair
/// names are recorded; at the COMMIT each one that changed is set back for the rest
/// of the transaction, except settings a session-level `SET` in the pair changed
/// (a COMMIT keeps those).
struct AuthorTransaction {
    let session: any TransactionSettingsSession
    private var before: [String: String]?
    private var sessionNames: Set<String> = []

    init(session: any TransactionSettingsSession) { self.session = session }

    /// At the author's BEGIN: records the state its COMMIT will return to.
    mutating func begin(section: MigrationSection, at index: Int) throws {
        let pair = Self.statementsOfPair(section, from: index)
        sessionNames = Set(pair.filter { $0.kind == .sessionSetting || $0.kind == .roleChange && !Self.isLocal($0) }
            .compactMap(Self.settingName))
        before = try session.transactionSettings(including: Self.customSettingNames(in: pair))
    }

    /// At the author's COMMIT: sets back what changed since the BEGIN.
    mutating func commit() throws {
        guard let before else { return }
        try session.restoreTransactionSettings(before, keeping: sessionNames)
        self.before = nil
    }

    /// The statements after the BEGIN at `index`, up to its COMMIT.
    static func statementsOfPair(_ section: MigrationSection, from index: Int) -> [SQLStatement] {
        let rest = section.statements[(index + 1)...]
        let end = rest.firstIndex { $0.kind == .commit } ?? section.statements.endIndex
        return Array(section.statements[(index + 1)..<end])
    }

    /// `SET [SESSION|LOCAL] name ...`'s name, lowercased (`role` for SET ROLE).
    static func settingName(_ statement: SQLStatement) -> String? {
        var words = statement.text.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }[...]
        guard let first = words.popFirst(), first == "set" || first == "reset" else { return nil }
        if words.first == "local" || words.first == "session" { words = words.dropFirst() }
        let name = words.first?.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "$" } ?? ""
        return name.isEmpty ? nil : String(name)
    }

    static func isLocal(_ statement: SQLStatement) -> Bool {
        statement.keywords.dropFirst().first == "local"
    }

    /// Custom settings (`a.b`) the pair names in `SET LOCAL a.b` or `set_config('a.b', ...)`.
    static func customSettingNames(in statements: [SQLStatement]) -> [String] {
        var names: Set<String> = []
        for statement in statements {
            let text = statement.text
            if statement.kind == .transactionSetting, let name = settingName(statement), name.contains(".") {
                names.insert(name)
            }
            var searchRange = text.startIndex..<text.endIndex
            while let call = text.range(of: "set_config", options: .caseInsensitive, range: searchRange) {
                searchRange = call.upperBound..<text.endIndex
                let after = text[call.upperBound...].drop { $0 == " " || $0 == "(" || $0 == "\n" || $0 == "\t" }
                guard after.first == "'", let close = after.dropFirst().firstIndex(of: "'") else { continue }
                let name = after[after.index(after: after.startIndex)..<close].lowercased()
                if name.contains(".") { names.insert(name) }
            }
        }
        return names.sorted()
    }
}
