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
    /// Who the probes act as without a plan: anon, two signed-in users (ava, ben) and
    /// service_role. With a plan, its own personas (`LintCast`).
    var personas: [Persona] = PlanDrafter.personas()
    /// Whether the run first checks which signed-in personas the database would refuse to
    /// sign up (and leaves them out); false when the caller already did (`PlanDrafter`).
    package var checksSignUps = true
    /// The drafted users' metadata (`--user-metadata`).
    let userMetadata: DraftUserMetadata
    /// Without a plan, how the probes' personas sign in and what their requests search
    /// (`ProjectAPISettings`: the config.toml's hook and `extra_search_path`); with a
    /// plan, the plan's own. Its `exposedSchemas` are not read (see `schemas`).
    public var api = ProjectAPISettings()

    /// - Parameters:
    ///   - connection: an admin connection, as for proving a plan (on Supabase, `postgres`).
    ///   - schemas: the schemas the API exposes.
    ///   - userMetadata: `raw_user_meta_data` for the drafted signed-in personas (ava and
    ///     ben), for a sign-up trigger that needs some; a plan's personas use their own.
    public init(connection: Connection, schemas: [String] = ["public"], userMetadata: DraftUserMetadata = .none) {
        self.connection = connection
        self.schemas = schemas
        self.userMetadata = userMetadata
        personas = PlanDrafter.personas(metadata: userMetadata.byPersona)
    }

    /// Reads the findings, proves their consequences (unless `probing` is false: then
    /// nothing is called or written, not even in a rolled-back transaction), and judges
    /// them by `plan`. The probes act as the plan's personas when there is a plan (see
    /// `LintCast`); a signed-in persona whose sign-up the database refuses is left out,
    /// named in `LintReport.leftOut` (the report then does not pass), and what needed
    /// it is not probed.
    public func run(plan: AccessPlan? = nil, migrations: URL? = nil, probing: Bool = true) throws -> LintReport {
        let started = ContinuousClock.now
        // A plan's functions by their canonical signature (however the plan spells them).
        let plannedFunctions = try plan.map(check) ?? [:]
        var (found, policies) = try LintCatalog(connection: connection, schemas: schemas).read()
        let hook = plan.map(\.accessTokenHook) ?? api.accessTokenHook
        if let hook, let finding = try HookUserMetadataProbe.finding(for: hook, on: connection) { found.append(finding) }
        var findings = found
        var leftOut: [PersonaSignUpRefusal] = []
        var metadataGuess: SignUpMetadataGuess?
        if probing {
            var cast = plan.map { LintCast.personas(plan: $0, drafted: personas, metadata: userMetadata) } ?? personas
            if checksSignUps {
                // The drafted personas (no plan), without metadata from the user: made up
                // where a sign-up trigger needs some (`SignUpMetadataGuess`).
                let signedUp = try SignUpMetadataGuess.signUp(
                    cast, guessing: plan == nil && userMetadata.byPersona.isEmpty, on: connection, schemas: schemas)
                (cast, leftOut, metadataGuess) = (signedUp.personas, signedUp.refusals, signedUp.guess)
            }
            cast.removeAll { persona in leftOut.contains { $0.persona == persona.name } }
            let draftCatalog = try DraftCatalog.read(connection, schemas: schemas)
            findings = try ConsequenceProber(
                connection: connection, schemas: schemas, personas: cast, draftCatalog: draftCatalog, policies: policies,
                accessTokenHook: hook,
                extraSearchPath: plan?.extraSearchPath ?? api.extraSearchPath).prove(found)
        }
        if let plan {
            let intent = LintIntent(plan: plan, functions: plannedFunctions)
            findings = findings.map(intent.judged)
        }
        if let migrations {
            let locator = try MigrationObjectLocator(folder: migrations)
            findings = findings.map { var finding = $0; finding.location = locator.location(of: finding); return finding }
        }
        return LintReport(findings: findings, duration: ContinuousClock.now - started, leftOut: leftOut, metadataGuess: metadataGuess)
    }

    /// A plan is checked against the catalog as `pgwarden test` checks it (roles,
    /// relations, functions), before anything runs: a plan test would refuse is bad input.
    private func check(_ plan: AccessPlan) throws -> [String: FunctionPlan] {
        try connection.rolledBack {
            let resolved = try PlanCatalogCheck.resolve(plan, on: connection)
            return Dictionary(resolved.functions.map { ($0.signature, $0.plan) }, uniquingKeysWith: { first, _ in first })
        }
    }
}

/// The findings of a lint run.
public struct LintReport: Sendable {
    public var findings: [LintFinding]
    public var duration: Duration
    /// Signed-in personas the probes could not act as: the database refused their sign-up.
    public var leftOut: [PersonaSignUpRefusal] = []
    /// The user metadata the drafted personas signed up with, made up because a sign-up
    /// trigger refused them without it; nil when none was (`SignUpMetadataGuess`).
    public var metadataGuess: SignUpMetadataGuess? = nil

    /// What the sign-ups of the drafted personas came to: the NOTE on the metadata made
    /// up for them, then the personas left out (`PersonaSignUpRefusal.lines`).
    public var signUpLines: [String] { (metadataGuess?.lines ?? []) + PersonaSignUpRefusal.lines(leftOut) }

    /// Findings that are dangers (`LintFinding.isDanger`).
    public var dangers: [LintFinding] { findings.filter(\.isDanger) }
    /// True when no finding is a danger and no persona was left out (the exit status
    /// of `pgwarden lint`): a run that could not act as everyone does not pass.
    public var passed: Bool { dangers.isEmpty && leftOut.isEmpty }
}
