import Yams

/// Typed reads of a composed YAML tree that fail with the node's line number.
///
/// The plan is read from Yams' node tree rather than through `Codable` so that
/// every mistake can name the line it is on.
struct YAMLNodeReader {
    let file: String

    /// How the plan is composed: with no implicit tag rules. Yams' default rules are
    /// regular expressions, compiled at first use and matched against every mapping
    /// key to find repeated keys: about a tenth of `pgwarden test`'s own time for
    /// Electric Ride's plan. Nothing pgwarden reads depends on them: it reads scalars
    /// as text, and Yams' `bool`, `int` and `null` look at the text of an untagged
    /// scalar, not at a resolved tag (`YAMLScalarTests`).
    static let resolver = Resolver.basic

    func line(_ node: Node) -> Int? { node.mark.map { $0.line } }

    func fail(_ node: Node?, _ message: String) -> AccessPlanError {
        AccessPlanError(file: file, line: node.flatMap(line), message: message)
    }

    /// Key/value pairs of a mapping, keys as strings, in file order.
    func mapping(_ node: Node, _ what: String) throws -> [(key: String, keyNode: Node, value: Node)] {
        guard case .mapping(let mapping) = node else { throw fail(node, "\(what) must be a mapping") }
        return try mapping.map { pair in
            guard let key = pair.key.string else { throw fail(pair.key, "\(what): keys must be text") }
            return (key, pair.key, pair.value)
        }
    }

    func sequence(_ node: Node, _ what: String) throws -> [Node] {
        guard case .sequence(let sequence) = node else { throw fail(node, "\(what) must be a list") }
        return Array(sequence)
    }

    func string(_ node: Node, _ what: String) throws -> String {
        guard case .scalar(let scalar) = node else { throw fail(node, "\(what) must be text") }
        return scalar.string
    }

    func strings(_ node: Node, _ what: String) throws -> [String] {
        if case .scalar = node { return [try string(node, what)] }
        return try sequence(node, what).map { try string($0, what) }
    }

    /// Plan SQL run as statements (setup, a check's `sql`/`before`/`verify`,
    /// `before_insert`): text whose every statement keeps pgwarden's transaction, its
    /// savepoints, its role and its settings (`SealedSQL`); a violation is a plan
    /// error on the offending statement's line.
    func sql(_ node: Node, _ what: String) throws -> String {
        let text = try string(node, what)
        if let violation = SealedSQL.firstViolation(in: text) {
            throw AccessPlanError(
                file: file, line: line(node).map { $0 + violation.line - 1 + blockOffset(node) },
                message: "\(what): \(violation.message)")
        }
        return text
    }

    /// Plan SQL spliced into a query (an `owner` rule, a `sample` value): one
    /// expression, never a statement list.
    func expression(_ node: Node, _ what: String) throws -> String {
        let text = try string(node, what)
        if StatementSplitter.split(text).count > 1 {
            throw fail(node, "\(what) must be one SQL expression, not statements")
        }
        return text
    }

    /// A block scalar (`|`, `>`) starts on the line after its indicator.
    private func blockOffset(_ node: Node) -> Int {
        guard case .scalar(let scalar) = node else { return 0 }
        return scalar.style == .literal || scalar.style == .folded ? 1 : 0
    }

    /// Rejects keys outside `allowed`, naming the offender and what is allowed.
    func checkKeys(_ pairs: [(key: String, keyNode: Node, value: Node)], allowed: [String], in what: String) throws {
        for pair in pairs where !allowed.contains(pair.key) {
            throw fail(pair.keyNode, "unknown key '\(pair.key)' in \(what) (expected one of: \(allowed.joined(separator: ", ")))")
        }
    }

    /// A scalar or nested structure rendered as JSON text (for user metadata).
    func json(_ node: Node) throws -> String {
        switch node {
        case .scalar(let scalar):
            if node.null != nil, scalar.style == .plain { return "null" }
            if let bool = node.bool, scalar.style == .plain { return bool ? "true" : "false" }
            if let int = node.int, scalar.style == .plain { return String(int) }
            return JSONText.quote(scalar.string)
        case .mapping:
            let pairs = try mapping(node, "metadata")
            return "{" + (try pairs.map { "\(JSONText.quote($0.key)):\(try json($0.value))" }.joined(separator: ",")) + "}"
        case .sequence(let items):
            return "[" + (try items.map { try json($0) }.joined(separator: ",")) + "]"
        case .alias:
            throw fail(node, "YAML aliases are not supported in metadata")
        }
    }
}
