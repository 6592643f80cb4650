import Foundation

/// Finds the migration file and line that created an object, by searching the
/// folder's `.sql` files (in name order) for a `create ... <name>` (or, for a policy
/// finding, `alter table ... <name>`/`create policy ... on <name>`) naming it,
/// quoted or not, schema-qualified or not. The first match wins; none gives no location.
///
/// A function that a later migration renamed (`alter function f() rename to g`) or
/// moved (`alter function g() set schema api`) is found at the last such statement that
/// gave it its current name and schema, since no `create` names it as it is now.
struct MigrationObjectLocator {
    /// (file path as given, lines, the whole text)
    let files: [(path: String, lines: [String], text: String)]

    init(folder: URL) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        files = names.filter { $0.hasSuffix(".sql") }.sorted().compactMap { name in
            let url = folder.appendingPathComponent(name)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
            return (url.relativePath, text.components(separatedBy: "\n"), text)
        }
    }

    func location(of finding: LintFinding) -> LintLocation? {
        let name = NSRegularExpression.escapedPattern(for: finding.name)
        let quotedName = "(\"\(NSRegularExpression.escapedPattern(for: finding.name.replacingOccurrences(of: "\"", with: "\"\"")))\"|\(name))"
        let schema = "((\"?\(NSRegularExpression.escapedPattern(for: finding.schema))\"?)\\s*\\.\\s*)?"
        let object = schema + quotedName + "(?![\\w$\"])"
        let kind: String
        switch finding.kind {
        case .function: kind = "function"
        case .view: kind = "view"
        case .materializedView: kind = "materialized\\s+view"
        case .foreignTable: kind = "foreign\\s+table"
        case .extension: kind = "extension"
        case .table: kind = "table"
        }
        if finding.kind == .function, let moved = lastRenameOrMove(name: quotedName, schema: finding.schema) {
            return moved
        }
        var patterns = ["\\bcreate\\s+(or\\s+replace\\s+)?((temp|temporary|unlogged|recursive)\\s+)*\(kind)\\s+(if\\s+not\\s+exists\\s+)?\(object)"]
        if [.rlsPolicyAlwaysTrue, .rlsReferencesUserMetadata, .authRLSInitplan, .multiplePermissivePolicies].contains(finding.rule) {
            patterns.insert("\\bcreate\\s+policy\\b[^;]*?\\bon\\s+\(object)", at: 0)
        }
        for pattern in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { continue }
            for file in files {
                for (index, line) in file.lines.enumerated()
                where regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    return LintLocation(file: file.path, line: index + 1)
                }
            }
        }
        return nil
    }

    /// The last `alter function|procedure|routine ... rename to <name>` or `... <name>(...)
    /// set schema <schema>` in the folder (statements may span lines), or nil.
    /// `name` is the regex of the name, quoted or bare.
    private func lastRenameOrMove(name: String, schema: String) -> LintLocation? {
        let quotedSchema = "(\"\(NSRegularExpression.escapedPattern(for: schema.replacingOccurrences(of: "\"", with: "\"\"")))\""
            + "|\(NSRegularExpression.escapedPattern(for: schema)))"
        let end = "(?![\\w$\"])"
        let alter = "\\balter\\s+(function|procedure|routine)\\s+"
        let anySchema = "((\"([^\"]|\"\")+\"|[\\w$]+)\\s*\\.\\s*)?"
        let patterns = [
            alter + "[^;]*?\\brename\\s+to\\s+" + name + end,
            alter + anySchema + name + "\\s*(\\([^;]*?)?\\bset\\s+schema\\s+" + quotedSchema + end,
        ]
        let regexes = patterns.compactMap { try? NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }
        var found: LintLocation?
        for file in files {
            let whole = NSRange(file.text.startIndex..., in: file.text)
            let starts = regexes.flatMap { $0.matches(in: file.text, range: whole) }.map(\.range.location)
            guard let last = starts.max(), let index = Range(NSRange(location: last, length: 0), in: file.text) else { continue }
            found = LintLocation(file: file.path, line: file.text[..<index.lowerBound].reduce(1) { $0 + ($1 == "\n" ? 1 : 0) })
        }
        return found
    }
}
