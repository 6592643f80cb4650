import Foundation
import WardenPostgres

/// Finds what Supabase's advisor would flag about access (`LintRule`), from the
/// catalog, and proves each access finding's consequence as a persona in a run that
/// is rolled back (nothing stays). With an access plan, findings whose consequence the
/// plan declares are marked intended; with a migrations folder, each finding names
/// the file and line that created its object, when a search finds it.
public struct Linter {
    let connection: Connection
    let schemas: [String]
    /// Who the probes act as: anon, two signed-in users (ava, ben) and service_role.
    var personas: [Persona] = PlanDrafter.personas()

    /// - Parameters:
    ///   - connection: an admin connection, as for proving a plan (on Supabase, `postgres`).
    ///   - schemas: the schemas the API exposes.
    public init(connection: Connection, schemas: [String] = ["public"]) {
        self.connection = connection
        self.schemas = schemas
    }

    /// Reads the findings, proves their consequences (unless `probing` is false: then
    /// nothing is called or written, not even in a rolled-back transaction), and judges
    /// them by `plan`.
    public func run(plan: AccessPlan? = nil, migrations: URL? = nil, probing: Bool = true) throws -> LintReport {
        let started = ContinuousClock.now
        // A plan's functions by their canonical signature (however the plan spells them).
        let plannedFunctions = try plan.map(check) ?? [:]
        let found = try LintCatalog(connection: connection, schemas: schemas).read()
        var findings = found
        if probing {
            let draftCatalog = try DraftCatalog.read(connection, schemas: schemas)
            findings = try ConsequenceProber(connection: connection, schemas: schemas, personas: personas, draftCatalog: draftCatalog).prove(found)
        }
        if let plan {
            let intent = LintIntent(plan: plan, functions: plannedFunctions)
            findings = findings.map(intent.judged)
        }
        if let migrations {
            let locator = try MigrationObjectLocator(folder: migrations)
            findings = findings.map { var finding = $0; finding.location = locator.location(of: finding); return finding }
        }
        return LintReport(findings: findings, duration: ContinuousClock.now - started)
    }

    /// A plan is checked against the catalog as `pgwarden test` checks it (roles,
    /// relations, functions), before anything runs: a plan test would refuse is bad input.
    private func check(_ plan: AccessPlan) throws -> [String: FunctionPlan] {
        try connection.rolledBack {
            let catalog = try ExposedCatalog.read(connection, schemas: plan.schemas, roles: plan.personas.map(\.role))
            let resolved = try PlanCatalogCheck(plan: plan, catalog: catalog, connection: connection).resolve()
            return Dictionary(resolved.functions.map { ($0.signature, $0.plan) }, uniquingKeysWith: { first, _ in first })
        }
    }
}

/// The findings of a lint run.
public struct LintReport: Sendable {
    public var findings: [LintFinding]
    public var duration: Duration

    /// Findings that are dangers (`LintFinding.isDanger`).
    public var dangers: [LintFinding] { findings.filter(\.isDanger) }
    /// True when no finding is a danger (the exit status of `pgwarden lint`).
    public var passed: Bool { dangers.isEmpty }
}
