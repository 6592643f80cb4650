import Foundation

/// Finds the migration file and line that created an object, by searching the
/// folder's `.sql` files (in name order) for a `create ... <name>` (or, for a policy
/// finding, `alter table ... <name>`/`create policy ... on <name>`) naming it,
/// quoted or not, schema-qualified or not. The first match wins; none gives no location.
struct MigrationObjectLocator {
    /// (file path as given, lines)
    let files: [(path: String, lines: [String])]

    init(folder: URL) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        files = names.filter { $0.hasSuffix(".sql") }.sorted().compactMap { name in
            let url = folder.appendingPathComponent(name)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
            return (url.relativePath, text.components(separatedBy: "\n"))
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
}
