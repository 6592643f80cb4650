import Foundation

/// Finds the migration file and line where an object got its current definition, by
/// reading the folder's `.sql` files (in name order) statement by statement
/// (`StatementSplitter`: comments, strings and bodies are not mistaken for statements)
/// and reporting the first line of the last statement that did, in migration order:
///
/// - a table, view, materialized view, foreign table, function or extension: the last
///   `create` naming it, or `alter ... rename to <name>` / `alter ... set schema <schema>`
///   that gave it its current name and schema;
/// - a policy finding (`LintFinding.policies`): the last `create policy <name> on <table>`
///   or `alter policy <name> on <table> ...` (a rename: the one giving it its name), names
///   compared as PostgreSQL compares identifiers (unquoted folded to lower case, quoted
///   exact), the table followed through `alter table ... rename to`. For a finding about
///   several policies, the earliest of theirs; none found, the table's.
///
/// Unqualified names are taken to name the object in any schema. None found gives no location.
struct MigrationObjectLocator {
    /// A statement that names an object, where it begins.
    struct Located {
        var statement: ObjectStatement
        var location: LintLocation
    }

    /// Every such statement of the folder, in migration order.
    let statements: [Located]

    init(folder: URL) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        statements = names.filter { $0.hasSuffix(".sql") }.sorted().flatMap { name -> [Located] in
            let url = folder.appendingPathComponent(name)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
            let source = SourceText(text)
            return StatementSplitter.split(text).flatMap { statement -> [Located] in
                func located(_ named: ObjectStatement, at offset: Int) -> Located {
                    let line = source.location(ofOffset: statement.range.lowerBound + offset).line
                    return Located(statement: named, location: LintLocation(file: url.relativePath, line: line))
                }
                guard let keyword = statement.keywords.first else { return [] }
                if keyword == "do" { return Self.policiesCreated(inBlock: statement.text).map { located($0.statement, at: $0.offset) } }
                guard ["create", "alter", "drop"].contains(keyword), let named = ObjectStatement(statement.text) else { return [] }
                return [located(named, at: 0)]
            }
        }
    }

    func location(of finding: LintFinding) -> LintLocation? {
        if let policies = finding.policies, !policies.isEmpty,
           let found = policyLocation(names: policies, schema: finding.schema, table: finding.name) {
            return found
        }
        return objectLocation(
            kind: finding.kind.rawValue, schema: finding.schema, name: finding.name,
            arguments: finding.signature.map(Self.argumentCount))
    }

    /// The `create policy` statements in a DO block (`if not exists (select 1 from
    /// pg_policies ...) then create policy ...; end if;`, or in an `execute '...'`), each
    /// with its scalar offset in the block: a policy made there was located at its
    /// table's `create table`, lines above.
    static func policiesCreated(inBlock text: String) -> [(offset: Int, statement: ObjectStatement)] {
        guard let createPolicy else { return [] }
        return createPolicy.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let start = Range(match.range, in: text)?.lowerBound else { return nil }
            let rest = text[start...]
            // A `format()` placeholder (`public.%I`) read as a name of its own.
            let written = String(rest[..<(rest.firstIndex(of: ";") ?? rest.endIndex)])
                .replacingOccurrences(of: #"%(?:[0-9]+\$)?-?[0-9]*[IsL]"#, with: formatted, options: .regularExpression)
            guard let named = ObjectStatement(written) else { return nil }
            return (text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: start), named)
        }
    }

    /// The name a `format()` placeholder (`%I`, `%s`, `%1$I`) in a DO block's `create
    /// policy` is read as.
    private static let formatted = "pgwarden_formatted_name"

    /// Whether a name was a `format()` placeholder.
    static func isFormatted(_ name: String) -> Bool { name == formatted }

    private static let createPolicy = try? NSRegularExpression(pattern: #"\bcreate\s+policy\b"#, options: [.caseInsensitive])

    /// The number of arguments a signature lists: `public.f(integer, text)` has 2.
    static func argumentCount(_ signature: String) -> Int {
        guard let open = signature.firstIndex(of: "("), let close = signature.lastIndex(of: ")") else { return 0 }
        let list = signature[signature.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
        guard !list.isEmpty else { return 0 }
        var depth = 0, count = 1
        for character in list {
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0: count += 1
            default: break
            }
        }
        return count
    }

    /// The last statement that created the object or gave it its current name or schema;
    /// for a function, one with as many arguments as its signature (`arguments`) when the
    /// statement's list was read (an overload is another function of the same name).
    private func objectLocation(kind: String, schema: String, name: String, arguments: Int? = nil) -> LintLocation? {
        var found: LintLocation?
        for located in statements where located.statement.kind == kind {
            if let arguments, let written = located.statement.argumentCount, written != arguments { continue }
            let statement = located.statement
            switch statement.action {
            case .create where statement.name.names(schema: schema, name: name):
                found = located.location
            case .rename(let new) where new == name && (statement.name.schema ?? schema) == schema:
                found = located.location
            case .setSchema(let new) where new == schema && statement.name.name == name:
                found = located.location
            default:
                break
            }
        }
        return found
    }

    /// Where each of the policies on the table was last created or altered; the earliest
    /// of them, or nil when none is found.
    private func policyLocation(names: [String], schema: String, table: String) -> LintLocation? {
        // Keyed by the table's current name, then the policy's.
        var policies: [String: [String: Int]] = [:]
        for (index, located) in statements.enumerated() {
            let statement = located.statement
            if statement.kind == "table", case .rename(let new) = statement.action,
               (statement.name.schema ?? schema) == schema {
                policies[new] = policies.removeValue(forKey: statement.name.name)
                continue
            }
            guard statement.kind == "policy", let on = statement.table, on.schema == nil || on.schema == schema else { continue }
            // A name made by `format()` in a DO block's loop (`execute format('create
            // policy own_select on public.%I ...', t)`) may be any table's, or any of the
            // finding's policies: a policy made so was located at its table's `create
            // table`, in another file.
            let target = Self.isFormatted(on.name) ? table : on.name
            let named = Self.isFormatted(statement.name.name) ? names : [statement.name.name]
            for name in named {
                switch statement.action {
                case .create, .alter, .setSchema:
                    policies[target, default: [:]][name] = index
                case .rename(let new):
                    policies[target]?[name] = nil
                    policies[target, default: [:]][new] = index
                case .drop:
                    policies[target]?[name] = nil
                }
            }
        }
        let found = names.compactMap { policies[table]?[$0] }
        return found.min().map { statements[$0].location }
    }
}
