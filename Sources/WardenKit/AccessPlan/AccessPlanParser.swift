import Foundation
import Yams

/// Reads an access plan from YAML. Every structural mistake (unknown key, persona,
/// operation or scope; a missing field; invalid YAML) is an `AccessPlanError` with
/// the line it is on. Checks against the database come later (`PlanCatalogCheck`).
package struct AccessPlanParser {
    private let reader: YAMLNodeReader

    package init(file: String) { reader = YAMLNodeReader(file: file) }

    /// Reads a plan file from disk, with the settings of the `supabase/config.toml`
    /// beside it, else of the project at `projectRoot` (`PlanSupabaseConfig`).
    package static func load(path: String, projectRoot: String? = nil) throws -> AccessPlan {
        // stat(2), not FileManager's attributes: those look up the file owner's user and
        // group names too (the system's user database), on every run's path (issue 18).
        var status = stat()
        if stat(path, &status) == 0, status.st_size > YAMLBudget.maxBytes {
            throw AccessPlanError(
                file: path, line: nil,
                message: "the plan file is \(status.st_size) bytes; plans over \(YAMLBudget.maxBytes) bytes are refused")
        }
        let text: String
        switch TextFile.read(atPath: path) {
        case .success(let read): text = read
        case .failure(.unreadable):
            throw AccessPlanError(file: path, line: nil, message: "cannot read the plan file (missing or unreadable)")
        case .failure(.notUTF8): throw AccessPlanError(file: path, line: nil, message: "the plan file is not valid UTF-8")
        }
        let config = try PlanSupabaseConfig.read(near: path, projectRoot: projectRoot)
        // A plan that names no schemas checks those the project's Data API exposes, as
        // the Supabase CLI's PostgREST does: the project's own among `[api] schemas`.
        let configured = config.schemas.map { ProjectAPISettings.projectSchemas($0) }
        var plan = try AccessPlanParser(file: path).parse(text, defaultSchemas: configured ?? ["public"])
        if let exposed = config.schemas {
            plan.schemasConfig = config.file
            if plan.schemasLine != nil {
                plan.configuredSchemasLeftOut = ProjectAPISettings.projectSchemas(exposed, orPublic: false)
                    .filter { !plan.schemas.contains($0) }
            }
        }
        if plan.accessTokenHook == nil { plan.accessTokenHook = config.hook }
        if let extraSearchPath = config.extraSearchPath { plan.extraSearchPath = extraSearchPath }
        return plan
    }

    /// Parses plan text; `defaultSchemas` are the exposed schemas when it names none
    /// (the first is where unqualified names are looked up).
    package func parse(_ text: String, defaultSchemas: [String] = ["public"]) throws -> AccessPlan {
        let budget = YAMLBudget(file: reader.file)
        try budget.checkText(text)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text, YAMLNodeReader.resolver) else { throw reader.fail(nil, "the plan file is empty") }
            root = node
        } catch let error as YamlError {
            throw AccessPlanError(file: reader.file, line: Self.line(of: error), message: "invalid YAML: \(Self.summary(of: error))")
        }
        try budget.checkTree(root)
        let top = try reader.mapping(root, "the plan")
        try reader.checkKeys(top, allowed: ["schemas", "personas", "setup", "relations", "functions", "checks", "access_token_hook"], in: "the plan")
        let value = { (key: String) in top.first { $0.key == key }?.value }

        let schemas = try value("schemas").map { try reader.strings($0, "schemas") } ?? defaultSchemas
        if schemas.isEmpty {
            throw reader.fail(value("schemas"), "'schemas' is empty: name the schemas PostgREST exposes (usually [public])")
        }
        guard let personaNode = value("personas") else { throw reader.fail(root, "the plan needs 'personas'") }
        let personas = try parsePersonas(personaNode)
        var context = Context(personas: personas, defaultSchema: schemas.first ?? "public")
        context.dangerLines = Self.dangerCommentLines(text)
        var plan = AccessPlan(
            source: reader.file,
            schemas: schemas,
            personas: personas,
            setup: try value("setup").map { try setupSQL($0) } ?? [],
            relations: try value("relations").map { try parseRelations($0, context) } ?? [],
            functions: try value("functions").map { try parseFunctions($0, context) } ?? [],
            checks: try value("checks").map { try parseChecks($0, context) } ?? [],
            schemasLine: value("schemas").flatMap { reader.line($0) },
            accessTokenHook: try value("access_token_hook").map { try accessTokenHook($0) })
        plan.dangerMarkedFindings = Self.dangerMarkedFindings(text)
        return plan
    }

    /// "rule subject" of each header line `# DANGER (rule) subject: ...` (a lint danger
    /// as `plan draft` writes it).
    static func dangerMarkedFindings(_ text: String) -> Set<String> {
        var found: Set<String> = []
        for bytes in PlanTextLines(text) where bytes.starts(with: "# DANGER (".utf8) {
            let line = Substring(bytes)
            let rest = line.dropFirst("# DANGER (".count)
            guard let close = rest.firstIndex(of: ")"), let colon = rest[close...].range(of: ": ") else { continue }
            let rule = rest[..<close], subject = rest[rest.index(after: close)..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
            found.insert("\(rule) \(subject)")
        }
        return found
    }

    /// `access_token_hook: schema.function` (the function the auth server would call).
    private func accessTokenHook(_ node: Node) throws -> AccessTokenHook {
        let text = try reader.string(node, "access_token_hook")
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }) else {
            throw reader.fail(node, "access_token_hook must name a function as schema.function, e.g. public.custom_access_token_hook")
        }
        return AccessTokenHook(schema: parts[0], function: parts[1], origin: "\(reader.file):\(reader.line(node) ?? 0)")
    }

    struct Context {
        var personas: [Persona]
        var defaultSchema: String
        /// The lines marked `# DANGER` (`dangerCommentLines`).
        var dangerLines: Set<Int> = []

        /// The personas a key in an access map names: a persona name, or a role name
        /// standing for every persona with that role.
        func personas(matching key: String) -> [Persona] {
            if let persona = personas.first(where: { $0.name == key }) { return [persona] }
            return personas.filter { $0.role == key }
        }

        func qualify(_ name: String) -> (schema: String, name: String) {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : (defaultSchema, name)
        }
    }

    /// Setup SQL: one text or a list of them, each checked by `SealedSQL`.
    private func setupSQL(_ node: Node) throws -> [String] {
        if case .scalar = node { return [try reader.sql(node, "setup")] }
        return try reader.sequence(node, "setup").map { try reader.sql($0, "setup") }
    }

    // MARK: - Personas

    private func parsePersonas(_ node: Node) throws -> [Persona] {
        var personas: [Persona] = []
        for entry in try reader.mapping(node, "personas") {
            let fields = try reader.mapping(entry.value, "persona '\(entry.key)'")
            try reader.checkKeys(fields, allowed: ["role"] + PlanUserReader.keys + TokenOptionsReader.keys, in: "persona '\(entry.key)'")
            let field = { (key: String) in fields.first { $0.key == key }?.value }
            guard let roleNode = field("role") else { throw reader.fail(entry.keyNode, "persona '\(entry.key)' needs a role") }
            let role = try reader.string(roleNode, "role")
            let user = try PlanUserReader(reader: reader).user(persona: entry.key, role: role, keyNode: entry.keyNode, field: field)
            var persona = Persona(name: entry.key, role: role, user: user, line: reader.line(entry.keyNode) ?? 0)
            persona.token = try TokenOptionsReader(reader: reader).options(persona: entry.key, hasUser: user != nil, field: field)
            personas.append(persona)
        }
        guard !personas.isEmpty else { throw reader.fail(node, "the plan needs at least one persona") }
        return personas
    }

    // MARK: - Relations

    private func parseRelations(_ node: Node, _ context: Context) throws -> [RelationPlan] {
        try reader.mapping(node, "relations").map { entry in
            let what = "relation '\(entry.key)'"
            let fields = try reader.mapping(entry.value, what)
            try reader.checkKeys(fields, allowed: ["owner", "shared", "columns", "sample", "before_insert", "access"], in: what)
            let field = { (key: String) in fields.first { $0.key == key }?.value }
            let (schema, name) = context.qualify(entry.key)
            let owner = try field("owner").map { try reader.expression($0, "owner of \(what)") }
            let sample = try field("sample").map { node in
                try reader.mapping(node, "sample of \(what)").map { ($0.key, try reader.expression($0.value, "sample value '\($0.key)' of \(what)")) }
            } ?? []
            guard let accessNode = field("access") else { throw reader.fail(entry.keyNode, "\(what) needs 'access'") }
            let access = try parseAccessMap(accessNode, context, what: what, hasOwner: owner != nil)
            var relation = RelationPlan(
                schema: schema, name: name, owner: owner,
                columns: try field("columns").map { try reader.strings($0, "columns") },
                sample: sample,
                beforeInsert: try field("before_insert").map { try reader.sql($0, "before_insert of \(what)") },
                access: access, line: reader.line(entry.keyNode) ?? 0)
            relation.dangerMarked = try dangerMarked(accessNode, context, what: what)
            if let shared = field("shared") {
                guard owner != nil else { throw reader.fail(shared, "'shared' of \(what) needs an 'owner' (its rows are neither)") }
                relation.shared = try reader.expression(shared, "shared of \(what)")
            }
            return relation
        }
    }

    /// The lines of `text` that end in a `# DANGER` comment after a value (as `plan draft`
    /// marks a cell it drafted from what the database allowed).
    static func dangerCommentLines(_ text: String) -> Set<Int> {
        var lines: Set<Int> = []
        for (index, line) in PlanTextLines(text).enumerated() {
            guard let mark = PlanTextLines.start(of: "# DANGER", in: line) else { continue }
            if !PlanTextLines.isBlank(line[..<mark]) { lines.insert(index + 1) }
        }
        return lines
    }

    /// The personas whose cell in the map `node` is on a line marked `# DANGER`.
    private func dangerMarked(_ node: Node, _ context: Context, what: String) throws -> Set<String> {
        guard !context.dangerLines.isEmpty else { return [] }
        var marked: Set<String> = []
        for entry in try reader.mapping(node, what) where context.dangerLines.contains(reader.line(entry.keyNode) ?? 0) {
            marked.formUnion(context.personas(matching: entry.key).map(\.name))
        }
        return marked
    }

    /// Persona name -> access; unmentioned personas get nothing (deny by default).
    private func parseAccessMap(_ node: Node, _ context: Context, what: String, hasOwner: Bool) throws -> [String: Access] {
        try cells(try reader.mapping(node, "access of \(what)"), context, what: what, fallback: .nothing) {
            try parseAccess($0, what: what, hasOwner: hasOwner)
        }
    }

    /// Persona name -> value, from entries keyed by a persona or a role (standing for
    /// every persona with it). A persona's own key wins over its role's, whatever the
    /// order; personas not named get `fallback`.
    private func cells<Value>(
        _ entries: [(key: String, keyNode: Node, value: Node)], _ context: Context, what: String,
        fallback: Value, _ parse: (Node) throws -> Value
    ) throws -> [String: Value] {
        var byPersona: [String: Value] = [:]
        var explicitlyNamed: Set<String> = []
        for entry in entries {
            let targets = context.personas(matching: entry.key)
            guard !targets.isEmpty else {
                throw reader.fail(entry.keyNode, "unknown persona or role '\(entry.key)' in \(what)")
            }
            let value = try parse(entry.value)
            let isPersonaName = context.personas.contains { $0.name == entry.key }
            for persona in targets where isPersonaName || !explicitlyNamed.contains(persona.name) {
                byPersona[persona.name] = value
                if isPersonaName { explicitlyNamed.insert(persona.name) }
            }
        }
        for persona in context.personas where byPersona[persona.name] == nil {
            byPersona[persona.name] = fallback
        }
        return byPersona
    }

    /// `none`, `denied`, `read`, `all`, or a map of operation -> scope.
    private func parseAccess(_ node: Node, what: String, hasOwner: Bool) throws -> Access {
        if case .scalar = node {
            switch try reader.string(node, "access") {
            case "none": return .nothing
            case "denied": return Access(select: .denied, insert: .nothing, update: .nothing, delete: .nothing)
            case "read": return Access(select: .all, insert: .nothing, update: .nothing, delete: .nothing)
            case "all": return .everything
            case let other:
                throw reader.fail(node, "unknown access '\(other)' in \(what) (expected none, denied, read, all, or a map of select/insert/update/delete)")
            }
        }
        var access = Access.nothing
        for entry in try reader.mapping(node, "access") {
            guard let operation = AccessOperation(rawValue: entry.key) else {
                throw reader.fail(entry.keyNode, "unknown operation '\(entry.key)' in \(what) (expected select, insert, update, delete)")
            }
            let text = try reader.string(entry.value, "scope")
            guard let scope = Scope(rawValue: text) else {
                throw reader.fail(entry.value, "unknown scope '\(text)' for \(entry.key) in \(what) (expected all, own, some, none, denied)")
            }
            if scope == .someRows && operation != .select {
                throw reader.fail(entry.value, "'\(entry.key): some' in \(what): some is for select only (a write is probed on "
                    + "an own row and another user's row, so it is all, own, none or denied)")
            }
            if scope == .own && !hasOwner {
                throw reader.fail(entry.value, "\(what) has no 'owner' rule, so '\(entry.key): own' has no meaning")
            }
            switch operation {
            case .select: access.select = scope
            case .insert: access.insert = scope
            case .update: access.update = scope
            case .delete: access.delete = scope
            }
        }
        return access
    }

    // MARK: - Functions and checks

    private func parseFunctions(_ node: Node, _ context: Context) throws -> [FunctionPlan] {
        try reader.mapping(node, "functions").map { entry in
            let what = "function '\(entry.key)'"
            var signature = entry.key.contains("(") ? entry.key : "\(entry.key)()"
            if !signature.prefix(while: { $0 != "(" }).contains(".") { signature = "\(context.defaultSchema).\(signature)" }
            let execute = try cells(try reader.mapping(entry.value, what), context, what: what, fallback: false) { node in
                let text = try reader.string(node, "execute")
                guard text == "execute" || text == "deny" else {
                    throw reader.fail(node, "unknown value '\(text)' in \(what) (expected execute or deny)")
                }
                return text == "execute"
            }
            var function = FunctionPlan(signature: signature, execute: execute, line: reader.line(entry.keyNode) ?? 0)
            function.dangerMarked = try dangerMarked(entry.value, context, what: what)
            return function
        }
    }

    private func parseChecks(_ node: Node, _ context: Context) throws -> [CustomCheck] {
        try reader.sequence(node, "checks").map { item in
            let fields = try reader.mapping(item, "a check")
            try reader.checkKeys(fields, allowed: ["name", "as", "sql", "before", "verify", "expect"], in: "a check")
            let field = { (key: String) in fields.first { $0.key == key }?.value }
            let name = try field("name").map { try reader.string($0, "name") } ?? "check at line \(reader.line(item) ?? 0)"
            guard let asNode = field("as") else { throw reader.fail(item, "check '\(name)' needs 'as' (a persona)") }
            let persona = try reader.string(asNode, "as")
            guard context.personas.contains(where: { $0.name == persona }) else {
                throw reader.fail(asNode, "unknown persona '\(persona)' in check '\(name)'")
            }
            guard let sqlNode = field("sql") else { throw reader.fail(item, "check '\(name)' needs 'sql'") }
            let expectation = try field("expect").map { try parseExpectation($0, check: name) } ?? Expectation()
            let verify = try field("verify").map { try reader.sql($0, "verify of check '\(name)'") }
            if expectation.isEmpty && verify == nil {
                throw reader.fail(item, "check '\(name)' needs 'expect' or 'verify'")
            }
            return CustomCheck(
                name: name, persona: persona, sql: try reader.sql(sqlNode, "sql of check '\(name)'"),
                before: try field("before").map { try reader.sql($0, "before of check '\(name)'") },
                verify: verify, expectation: expectation, line: reader.line(item) ?? 0)
        }
    }

    private func parseExpectation(_ node: Node, check: String) throws -> Expectation {
        let fields = try reader.mapping(node, "expect of check '\(check)'")
        try reader.checkKeys(fields, allowed: ["rows", "rows_equal", "value", "columns", "row_count", "sqlstate"], in: "expect of check '\(check)'")
        var expectation = Expectation()
        for field in fields {
            switch field.key {
            case "rows":
                expectation.rows = try reader.sequence(field.value, "rows").map { row in
                    try reader.sequence(row, "a row").map { $0.null != nil && $0.string == "null" ? nil : try reader.string($0, "a value") }
                }
            case "rows_equal": expectation.rowsEqual = try reader.sql(field.value, "rows_equal of check '\(check)'")
            case "value": expectation.value = try reader.string(field.value, "value")
            case "columns": expectation.columns = try reader.strings(field.value, "columns")
            case "row_count":
                guard let count = field.value.int else { throw reader.fail(field.value, "row_count must be a whole number") }
                expectation.rowCount = count
            default:
                let state = try reader.string(field.value, "sqlstate")
                guard state.count == 5 else { throw reader.fail(field.value, "sqlstate must be five characters, e.g. 42501") }
                expectation.sqlState = state
            }
        }
        return expectation
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return mark.line
        default: return nil
        }
    }

    private static func summary(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return problem
        default: return "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        }
    }
}

extension Expectation {
    var isEmpty: Bool {
        rows == nil && rowsEqual == nil && value == nil && columns == nil && rowCount == nil && sqlState == nil
    }
}
