import Foundation
import WardenPostgres

/// Proves what access findings let a persona do, the way `pgwarden test` proves a
/// plan: in one transaction that is rolled back, the personas (anon, two signed-in
/// users, service_role: `LintCast`) get accounts (`PlanAccountCreator`),
/// each probe acts as a persona exactly as PostgREST would (`Impersonation`) in a
/// savepoint of its own that is rolled back, so a failing probe does not end the run
/// and nothing stays.
struct ConsequenceProber {
    let connection: Connection
    let schemas: [String]
    /// anon, two signed-in users and service_role (with the metadata a sign-up trigger
    /// may need); a signed-in user whose sign-up was refused is not among them.
    let personas: [Persona]
    /// Read before the run (it opens a transaction of its own).
    let draftCatalog: DraftCatalog
    /// The policies `LintCatalog` read (an always-true one is probed as a persona of a
    /// role it applies to, for its own command).
    var policies: [LintPolicyRules.Policy] = []
    /// Who owns the rows of the probed tables, as `plan draft` reads it.
    private var ownership: DraftOwnership { DraftOwnership(catalog: draftCatalog) }
    /// The custom access token hook the personas sign in through (the plan's, else the
    /// project's config.toml's).
    var accessTokenHook: AccessTokenHook? = nil
    /// What the requests search after their own schema (as `AccessPlan.extraSearchPath`).
    var extraSearchPath = AccessPlan.supabaseExtraSearchPath

    /// The findings, each probed one given its consequence.
    func prove(_ findings: [LintFinding]) throws -> [LintFinding] {
        let plan = AccessPlan(
            source: "pgwarden lint", schemas: schemas, personas: personas, setup: [],
            relations: [], functions: [], checks: [], accessTokenHook: accessTokenHook, extraSearchPath: extraSearchPath)
        return try connection.rolledBack {
            let seal = try RunSeal.capture(connection, source: plan.source)
            let userIDs = try PlanAccountCreator(connection: connection, plan: plan).createAccounts()
            let issued = try PersonaTokenIssuer(
                connection: connection, plan: plan, userIDs: userIDs, adminRoleSetting: seal.roleSetting).issue().issued
            // A call a deferred constraint refuses at commit fails for a client: the
            // probes fire them, as `pgwarden test`'s do, once the accounts' own pending
            // checks went through (when they do not, nothing is fired, as before).
            var deferred = DeferredConstraints.read(from: try connection.query(DeferredConstraints.namesSQL))
            do { try deferred.settle(on: connection, source: plan.source) } catch is DeferredSetupRefusal { deferred = .none }
            let context = ProbeContext(
                connection: connection, plan: plan, requests: issued.requests, seal: seal,
                impersonation: Impersonation(connection: connection, seal: seal), userIDs: userIDs,
                deferredConstraints: deferred)
            try addOwnedRows(for: findings, context)
            var proven: [LintFinding] = []
            for var finding in findings {
                finding.consequence = try consequence(of: finding, context)
                try seal.verify(after: "probing \(finding.rule.rawValue) on \(finding.subject)")
                proven.append(finding)
            }
            return proven
        }
    }

    /// Rows of the signed-in users in the tables whose policies are probed (as `plan draft`
    /// does), and in the empty tables a definer view reads: with none, its probe said
    /// "has no rows ... nothing either way" under a matrix showing anon reading every
    /// row through it.
    private func addOwnedRows(for findings: [LintFinding], _ context: ProbeContext) throws {
        var tables: [String: String] = [:]
        for finding in findings where finding.rule == .rlsPolicyAlwaysTrue { tables[finding.subject] = Self.quoted(finding) }
        for finding in findings where finding.rule == .securityDefinerView && finding.kind == .view {
            for source in try RelationReadProbe.sourceTables(of: finding, on: connection)
            where tables[source.name] == nil && ownership.catalog.columns[source.name] != nil {
                let empty = try connection.query("select not exists (select 1 from \(raw: source.quoted))").scalar == "t"
                if empty { tables[source.name] = source.quoted }
            }
        }
        for (table, quoted) in tables.sorted(by: { $0.key < $1.key }) {
            guard let sql = ownership.setupRows(table: table, quotedTable: quoted, emails: personas.compactMap { $0.user?.email })
            else { continue }
            try context.makeSetupRows(sql)
        }
    }

    /// Whether anon may call the finding's function: EXECUTE on it and USAGE on its schema.
    private func anonMayCall(_ finding: LintFinding) throws -> Bool {
        guard let signature = finding.signature else { return false }
        return try connection.query(
            """
            select coalesce(has_function_privilege('anon', to_regprocedure(\(signature)), 'execute')
                            and has_schema_privilege('anon', \(finding.schema), 'usage'), false)::text
            """).scalar == "true"
    }

    static func quoted(_ finding: LintFinding) -> String {
        SQL.quoteIdentifier(finding.schema) + "." + SQL.quoteIdentifier(finding.name)
    }

    private func consequence(of finding: LintFinding, _ context: ProbeContext) throws -> LintConsequence? {
        switch finding.rule {
        case .securityDefinerView, .authUsersExposed, .materializedViewInAPI, .foreignTableInAPI:
            return try RelationReadProbe(context: context, finding: finding).run()
        case .rlsDisabledInPublic, .policyExistsRLSDisabled:
            return try RelationReadProbe(context: context, finding: finding).run(withWrites: true)
        case .apiFunctionTruncates:
            // As anon where anon may call it (as `LintCatalog` found: EXECUTE, and USAGE
            // on the schema), else as a signed-in user.
            if let anon = context.anonName, try anonMayCall(finding) {
                return try FunctionCallProbe(context: context, finding: finding, ownership: ownership).run(as: anon)
            }
            fallthrough
        case .authenticatedSecurityDefinerFunctionExecutable:
            guard let user = context.userName else {
                return LintConsequence(verdict: .notProbed, evidence: [ProbeContext.leftOutEvidence])
            }
            return try FunctionCallProbe(context: context, finding: finding, ownership: ownership).run(as: user)
        case .anonSecurityDefinerFunctionExecutable:
            guard let anon = context.anonName else { return nil }
            return try FunctionCallProbe(context: context, finding: finding, ownership: ownership).run(as: anon)
        case .rlsPolicyAlwaysTrue:
            let policy = policies.first {
                $0.schema == finding.schema && $0.table == finding.name && [$0.name] == finding.policies
            }
            return try AlwaysTruePolicyProbe(
                context: context, finding: finding, ownership: ownership, policy: policy).run()
        case .accessTokenHookReadsUserMetadata:
            guard let accessTokenHook else { return nil }
            return try HookUserMetadataProbe(
                context: context, finding: finding, hook: accessTokenHook, claimsRead: draftCatalog.hookClaimsRead,
                policyExpressions: draftCatalog.policyExpressions).run()
        case .rlsReferencesUserMetadata:
            return try UserMetadataPolicyProbe(
                context: context, finding: finding, expressions: draftCatalog.policyExpressions[finding.subject] ?? [],
                ownership: ownership).run()
        default:
            return nil
        }
    }
}

/// The outcome of one statement run as a persona in a rolled-back savepoint.
enum PersonaOutcome {
    case rows([[String?]])
    case refused(PGError)

    /// `42501 permission denied for table t`.
    static func describe(_ error: PGError) -> String {
        "\(error.sqlState?.rawValue ?? "error") \(error.message)"
    }
}

extension PersonaRequest {
    /// The same persona asking `method` on `finding`'s route (`/<name>`, `/rpc/<name>`
    /// for a function), so its `search_path` is PostgREST's for the finding's schema.
    func routed(_ method: String, to finding: LintFinding) -> PersonaRequest {
        routed(method, finding.kind == .function ? "/rpc/\(finding.name)" : "/\(finding.name)", schema: finding.schema)
    }
}

extension ProbeContext {
    private static let lintSavepoint = "pgwarden_lint_probe"

    /// Runs `sql` as `personaName` in a rolled-back savepoint; `after` runs as the
    /// admin, still inside it (to count what changed). `sql` is text the probes build
    /// from quoted names and the catalog's own expressions (trusted by construction).
    /// The request is `method` on `finding`'s route (`PersonaRequest.routed(_:to:)`).
    ///
    /// One pipelined unit, each statement its own protocol message: the savepoint, the
    /// persona's settings and role as PostgREST sets them, a 5 s statement limit, `sql`,
    /// and back to the admin; the rollback goes in the same round trip (or, with
    /// `after`, once it ran). A failure stops the rest of the unit, as one statement
    /// at a time stopped the probe (issue 18: about six round trips a probe before).
    /// `countingRows`: the outcome is one row holding the number of rows the statement
    /// wrote (an update without RETURNING, which would ask the new row to pass the
    /// read policies too).
    func asPersona(_ personaName: String, _ method: String, on finding: LintFinding, _ sql: String,
                   countingRows: Bool = false, userMetadataJSON: String? = nil,
                   after: (() throws -> Void)? = nil) throws -> PersonaOutcome {
        guard let persona = plan.persona(named: personaName) else { return .rows([]) }
        let request = (userMetadataJSON.map { self.request(persona, userMetadataJSON: $0) } ?? self.request(persona))
            .routed(method, to: finding)
        let rollback: [SQL] = [
            "rollback to savepoint \(raw: Self.lintSavepoint)", "release savepoint \(raw: Self.lintSavepoint)",
        ]
        var batch = PipelinedBatch()
        _ = batch.add([
            "savepoint \(raw: Self.lintSavepoint)",
            PersonaRequest.select(request.roleSwitch + request.requestSettings),
            "select set_config('statement_timeout', '5s', true)",
            SQL(raw: sql),
        ] + (firesDeferredConstraints ? [DeferredConstraints.firingSQL] : []) + [impersonation.becomeAdminSQL])
        if after == nil { _ = batch.add(rollback) }
        let outcomes = try connection.run(batch)
        _ = try outcomes[0][0].get()  // the savepoint: its failure is the run's, not the probe's
        // The first statement that did not succeed failed (the rest were skipped after it).
        let outcome: PersonaOutcome
        if case .error(let error)? = outcomes[0].first(where: { !$0.succeeded }) {
            outcome = .refused(error)
        } else {
            let result = try outcomes[0][3].get()
            outcome = .rows(countingRows ? [[String(result.affectedRows ?? 0)]] : result.rows)
        }
        if let after {
            var failure: Error?
            if case .rows = outcome {
                do { try after() } catch { failure = error }
            }
            for result in try connection.run(unit: rollback) { _ = try result.get() }
            if let failure { throw failure }
        } else {
            for result in outcomes[1] { _ = try result.get() }
        }
        return outcome
    }

    /// Runs `sql`, rows `plan draft`'s setup would make, in a savepoint. With initially
    /// deferred constraints, their checks fire as a commit would: rows they refuse are
    /// not made (false), and the probes after it do not meet their pending checks.
    @discardableResult
    func makeSetupRows(_ sql: String) throws -> Bool {
        var refusedAtCommit = false
        do {
            try connection.savepoint {
                try connection.execute(unsafeScript: sql)
                do {
                    try deferredConstraints.fireAndDeferAgain(on: connection)
                } catch let error as PGError where !AccessPlanLimits.isLimit(error) {
                    refusedAtCommit = true
                    throw error
                }
            }
            return true
        } catch where refusedAtCommit {
            return false
        }
    }
}
