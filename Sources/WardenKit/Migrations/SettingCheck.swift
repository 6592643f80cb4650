/// Refuses settings that change how PostgreSQL reads SQL text itself.
///
/// `standard_conforming_strings = off` makes a backslash in `'...'` an escape. A
/// transactional section is sent as one text, which the server parses whole before
/// the SET runs; a `transaction:false` section is sent a statement at a time, like
/// psql, so later statements would be read with backslash escapes: the same section
/// would store different data in the two modes. pgwarden sets the setting `on` for its
/// sessions (the default since PostgreSQL 9.1, documented under "String Constants" in
/// the manual's lexical structure chapter) and refuses any other value in a migration;
/// write `E'...'` strings for backslash escapes instead.
enum SettingCheck {
    /// Settings that change lexing, and the only value pgwarden accepts for each.
    static let lexingSettings: [String: Set<String>] = ["standard_conforming_strings": ["on", "true", "yes", "1"]]

    static func check(_ section: MigrationSection, source: SourceText, direction: MigrationDirection) throws {
        for statement in section.statements {
            guard let name = changedLexingSetting(statement) else { continue }
            let line = source.location(ofOffset: section.startOffset + statement.range.lowerBound).line
            throw MigrationInputError.lexingSetting(file: section.path, line: line, setting: name)
        }
    }

    /// The lexing setting `statement` sets to a value pgwarden does not accept; nil when
    /// it sets none.
    static func changedLexingSetting(_ statement: SQLStatement) -> String? {
        guard statement.kind == .sessionSetting || statement.kind == .transactionSetting,
            let name = lexingSettingName(statement.keywords),
            let accepted = lexingSettings[name], !accepted.contains(settingValue(statement.text))
        else { return nil }
        return name
    }

    /// The setting a SET/RESET statement names, when it is one that changes lexing.
    static func lexingSettingName(_ keywords: [String]) -> String? {
        keywords.first { lexingSettings[$0] != nil }
    }

    /// The value after `=` or `TO`, lowercased and unquoted ("" for RESET or DEFAULT,
    /// which fall back to a server default pgwarden does not control).
    static func settingValue(_ text: String) -> String {
        let lowered = text.lowercased()
        let words = lowered.split(whereSeparator: { " \t\n;='\"".contains($0) })
        guard let index = words.firstIndex(where: { $0 == "standard_conforming_strings" }) else { return "" }
        var rest = words[(index + 1)...]
        if rest.first == "to" { rest = rest.dropFirst() }
        let value = rest.first.map(String.init) ?? ""
        return value == "default" ? "" : value
    }
}
