import WardenPostgres

/// Matches the plan against the database's catalog before anything runs: unknown
/// relations, functions and sample columns, and missing insert samples, are plan
/// mistakes reported with their line.
struct PlanCatalogCheck {
    let plan: AccessPlan
    let catalog: ExposedCatalog
    /// Where the schemas the database has are read, for the message about one it lacks.
    let connection: Connection
    /// The database's answers to the plan's questions, read with the catalog.
    let answers: Answers

    /// What the database answered to the plan's schema and role questions.
    struct Answers {
        /// The outcome of `missingSchemasSQL`.
        var missingSchemas: PipelinedBatch.Outcome
        /// The outcome of `roleSQL` for each persona, in the plan's order.
        var roles: [PipelinedBatch.Outcome]
    }

    /// The units a check reads, each failing alone, all sent in one round trip: the
    /// exposed catalog, the schemas the plan names that the database lacks, then one
    /// unit per persona's role.
    static func units(for plan: AccessPlan) -> [[SQL]] {
        [ExposedCatalog.queries(schemas: plan.schemas, roles: plan.personas.map(\.role)),
         [missingSchemasSQL(plan.schemas)]] + plan.personas.map { [roleSQL($0.role)] }
    }

    /// The check from the outcomes of `units(for: plan)`, in their order.
    init(plan: AccessPlan, outcomes: ArraySlice<[PipelinedBatch.Outcome]>, connection: Connection) throws {
        let first = outcomes.startIndex
        self.plan = plan
        catalog = try ExposedCatalog.decoding(outcomes[first])
        self.connection = connection
        answers = Answers(missingSchemas: outcomes[first + 1][0], roles: outcomes.dropFirst(2).map { $0[0] })
    }

    /// The plan checked against the catalog and its questions, read on `connection` in
    /// one round trip (`units(for:)`).
    static func resolve(_ plan: AccessPlan, on connection: Connection) throws -> Resolved {
        var batch = PipelinedBatch()
        for unit in units(for: plan) { batch.add(unit) }
        return try PlanCatalogCheck(plan: plan, outcomes: try connection.run(batch)[...], connection: connection).resolve()
    }

    struct Resolved {
        var relations: [(plan: RelationPlan, catalog: ExposedCatalog.Relation)]
        var unplannedRelations: [ExposedCatalog.Relation]
        var functions: [(plan: FunctionPlan, signature: String, oid: String, schema: String)]
        var unplannedFunctions: [ExposedCatalog.Function]
        /// `current_user` of the session that read the catalog (`ExposedCatalog.reader`).
        var catalogReader = ""
    }

    func resolve() throws -> Resolved {
        try checkSchemas()
        try checkRoles()
        let relations = try plan.relations.map { try resolve($0) }
        let functions = try plan.functions.map { try resolve($0) }
        try rejectRepeats(relations.map { ($0.catalog.qualifiedName, $0.plan.line) }, kind: "relation")
        try rejectRepeats(functions.map { ($0.signature, $0.plan.line) }, kind: "function")
        let plannedRelations = Set(relations.map(\.catalog.qualifiedName))
        let plannedFunctions = Set(functions.map(\.oid))
        return Resolved(
            relations: relations,
            unplannedRelations: catalog.relations.filter { !plannedRelations.contains($0.qualifiedName) },
            functions: functions,
            unplannedFunctions: catalog.callableFunctions.filter { !plannedFunctions.contains($0.oid) },
            catalogReader: catalog.reader)
    }

    /// Every exposed schema must exist: a misspelt one (`pubic`, `Public`) would make
    /// a vacuous run of zero probes that passes.
    private func checkSchemas() throws {
        guard let first = try Self.missingSchemas(in: answers.missingSchemas.get()).first else { return }
        let known = try connection.query(
            """
            select string_agg(nspname, ', ' order by nspname) from pg_namespace
            where nspname not like 'pg\\_%' and nspname <> 'information_schema'
            """).scalar ?? ""
        // The plan was resolved against these schemas (unqualified names in the first),
        // so a configured one the database lacks is refused here, not left out as a run
        // without a plan leaves it out.
        if plan.schemasLine == nil, let config = plan.schemasConfig {
            throw AccessPlanError(
                file: config, line: nil,
                message: "[api] schemas names '\(first)', which does not exist in the database; \(plan.source) names no schemas, so it checks those config.toml exposes: name them with 'schemas:' in the plan, or create the schema; the database has: \(known)")
        }
        let line = plan.schemasLine == nil ? " (the plan names no schemas; the default is public)" : ""
        throw AccessPlanError(
            file: plan.source, line: plan.schemasLine,
            message: "schema '\(first)' does not exist in the database\(line); it has: \(known)")
    }

    /// The names among `schemas` that the database has no schema of, in their order.
    static func missingSchemas(_ schemas: [String], on connection: Connection) throws -> [String] {
        missingSchemas(in: try connection.query(missingSchemasSQL(schemas)))
    }

    private static func missingSchemasSQL(_ schemas: [String]) -> SQL {
        "select s from unnest(\(array: schemas)::text[]) with ordinality as u (s, n) where not exists (select from pg_namespace where nspname = s) order by n"
    }

    private static func missingSchemas(in result: QueryResult) -> [String] {
        result.rows.compactMap { $0[0] }
    }

    /// A persona's role must exist, and the connecting session must be allowed to
    /// switch to it (`SET ROLE` needs the session user to be a member).
    private func checkRoles() throws {
        for (persona, outcome) in zip(plan.personas, answers.roles) {
            let row = try outcome.get().rows.first
            guard row?[0] == "t" else {
                throw fail(persona.line, "persona '\(persona.name)' has role '\(persona.role)', which does not exist in the database")
            }
            guard row?[1] == "t" else {
                throw fail(persona.line, "persona '\(persona.name)' has role '\(persona.role)', which the connecting user may not switch to (not a member)")
            }
        }
    }

    /// Whether `role` exists, and whether the session user may switch to it.
    private static func roleSQL(_ role: String) -> SQL {
        """
        select r.oid is not null, coalesce(pg_has_role(session_user, r.oid, 'MEMBER'), false)
        from (select \(role)::text as name) wanted left join pg_roles r on r.rolname = wanted.name
        """
    }

    /// One object planned twice under different spellings (`saved`, `public.saved`).
    private func rejectRepeats(_ names: [(name: String, line: Int)], kind: String) throws {
        var firstLine: [String: Int] = [:]
        for (name, line) in names {
            if let earlier = firstLine[name] {
                throw fail(line, "\(kind) \(name) is already planned at line \(earlier)")
            }
            firstLine[name] = line
        }
    }

    /// A drafted plan has no lines (0): its message names only the source.
    private func fail(_ line: Int, _ message: String) -> AccessPlanError {
        AccessPlanError(file: plan.source, line: line > 0 ? line : nil, message: message)
    }

    private func resolve(_ relation: RelationPlan) throws -> (plan: RelationPlan, catalog: ExposedCatalog.Relation) {
        guard plan.schemas.contains(relation.schema) else {
            throw fail(relation.line, "relation \(relation.qualifiedName) is not in an exposed schema (\(plan.schemas.joined(separator: ", ")))")
        }
        guard let found = catalog.relation(relation.schema, relation.name) else {
            throw fail(relation.line, "unknown relation \(relation.qualifiedName): no such table or view in the database")
        }
        for (column, _) in relation.sample where !found.columns.contains(column) {
            throw fail(relation.line, "unknown column '\(column)' in the sample of \(relation.qualifiedName)")
        }
        // A table whose every column is generated or an identity ALWAYS has nothing a
        // client could send: its insert probes send `default values` (the draft of such
        // a table made dev exit 65).
        if found.isTable && relation.sample.isEmpty && !found.assignableColumns.isEmpty {
            throw fail(relation.line, "\(relation.qualifiedName) needs a 'sample' (column: SQL value) for its insert probes")
        }
        if !found.isTable {
            for (persona, access) in relation.access
            where [access.insert, access.update, access.delete].contains(where: { $0 == .all || $0 == .own }) {
                throw fail(relation.line, "\(relation.qualifiedName) is a \(found.kindName): pgwarden probes reads of views only, so writes for '\(persona)' must be none")
            }
        }
        return (relation, found)
    }

    private func resolve(_ function: FunctionPlan) throws -> (plan: FunctionPlan, signature: String, oid: String, schema: String) {
        // Written with parameter names (`public.add(a integer, b integer)`), as
        // pg_get_function_identity_arguments prints it: to_regprocedure refuses names.
        let spelled = Self.normalized(function.signature)
        if let found = catalog.functions.first(where: { Self.normalized($0.namedSignature) == spelled || Self.normalized($0.signature) == spelled }) {
            return (function, found.signature, found.oid, found.schema)
        }
        let oid: String?
        do {
            oid = try connection.query("select to_regprocedure(\(function.signature))::oid::text").scalar
        } catch let error as PGError {
            throw fail(function.line, "invalid function signature '\(function.signature)': \(error.message)")
        }
        guard let oid, let found = catalog.functions.first(where: { $0.oid == oid }) else {
            throw fail(function.line, "unknown function \(function.signature): no such function in an exposed schema")
        }
        return (function, found.signature, oid, found.schema)
    }

    /// A signature without spaces after commas and parentheses, for comparing spellings.
    /// (By hand, not a regular expression: Foundation compiles one on every call, and
    /// this runs for every planned function against every exposed one.)
    static func normalized(_ signature: String) -> String {
        let punctuation: Set<Character> = ["(", ")", ","]
        var result = ""
        var pendingSpace = ""
        for character in signature {
            if character.isWhitespace {
                pendingSpace.append(character)
                continue
            }
            if !punctuation.contains(character), !(result.last.map(punctuation.contains) ?? false) {
                result += pendingSpace
            }
            pendingSpace = ""
            result.append(character)
        }
        if !(result.last.map(punctuation.contains) ?? false) { result += pendingSpace }
        return result
    }
}
