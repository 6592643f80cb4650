import Foundation
import WardenPostgres

/// Proves an access plan against a database: creates the plan's users, acts as each
/// persona the way PostgREST does, runs every probe in its own savepoint, and rolls
/// the whole run back. No row anywhere is left added, changed or removed (sequences
/// may advance, as for any rolled-back insert).
package struct AccessPlanRunner {
    let connection: Connection
    let plan: AccessPlan
    /// How long the run may wait for a lock, and how long one statement may take.
    package var limits = AccessPlanLimits()
    /// Whether the committed catalog may be read on a second session while the run's
    /// session works (`CatalogReadsInBackground`); off, everything is read on one.
    package var readsCatalogInBackground = true
    /// That second session, when the caller started opening it already (nil: the run
    /// opens it). Unused when the run reads everything on one session.
    package var catalogSession: ConnectionInBackground?
    /// The reads on that session, when the caller started them already, for this plan
    /// and these limits (`AccessPlan.startCatalogReads(on:limits:)`). Unused, and waited
    /// for, when the run reads everything on one session.
    package var catalogReads: CatalogReadsInBackground?

    /// - Parameter connection: an admin connection (a superuser or the project owner;
    ///   on Supabase and its twin, `postgres`) that may `set role` to every persona's
    ///   role and insert into `auth.users`.
    package init(connection: Connection, plan: AccessPlan) {
        self.connection = connection
        self.plan = plan
    }

    /// Checks the plan against the catalog (before anything runs), then runs it, all
    /// inside `rolledBack`: a transaction that is rolled back, or, when the connection
    /// is already in a transaction, a savepoint that is (the caller's work is kept).
    /// Plan SQL is sealed (`SealedSQL`, `RunSeal`): it cannot end the run's
    /// transaction or change who the runner is.
    /// A limit that runs out (`limits`) stops the run with `AccessPlanTimeout`, naming
    /// what it was doing and the sessions seen blocking it.
    package func run() throws -> AccessPlanReport {
        var subject = "reading the catalog"
        // The committed catalog is read on a second session meanwhile, when this run
        // begins its own transaction (inside a caller's, the caller's uncommitted
        // changes are part of what is checked, so it is read on the run's session,
        // first).
        let inBackground = readsCatalogInBackground && connection.transactionStatus == .idle
        let startedReads = catalogReads.flatMap { $0.plan.identity == plan.identity && $0.limits == limits ? $0 : nil }
        let background = inBackground
            ? startedReads ?? CatalogReadsInBackground(
                connect: { [settings = connection.settings, catalogSession] in
                    try catalogSession?.connection() ?? Connection(settings)
                }, plan: plan, limits: limits)
            : nil
        // Nothing of the second session outlives the run, whatever ended it (reads
        // started for it and not used included).
        defer {
            background?.wait()
            catalogReads?.wait()
        }
        // Watches, from a second connection opened only if the run lasts, who blocks it
        // (from the run's first round trip on, which reads the backend's pid).
        var watch: BlockerWatch?
        defer { _ = watch?.stop() }
        let report: AccessPlanReport
        do {
            report = try run(subject: &subject, background: background) { pid in
                watch = BlockerWatch(settings: connection.settings, pid: pid, delay: min(.seconds(1), limits.lockTimeout / 2))
            }
        } catch {
            // The probes' shared plans (`PlanReuse`) outlive the rolled-back run: each
            // made is removed, whatever ended the run.
            try? connection.deallocatePreparedStatements()
            guard let error = error as? PGError, AccessPlanLimits.isLimit(error) else { throw error }
            let lockWait = error.sqlState == .lockNotAvailable
            throw AccessPlanTimeout(
                subject: subject, lockWait: lockWait, limit: lockWait ? limits.lockTimeout : limits.statementTimeout,
                blocking: watch?.stop() ?? [], message: error.message)
        }
        // Those the rollback's round trip did not deallocate (inside a caller's
        // transaction, where the run was a savepoint).
        try connection.deallocatePreparedStatements()
        return report
    }

    private func run(
        subject: inout String, background: CatalogReadsInBackground?, watchBackend: (Int) -> Void
    ) throws -> AccessPlanReport {
        let started = ContinuousClock.now
        return try connection.rolledBackDeallocating {
            let seal: RunSeal
            var resolvedHere: PlanCatalogCheck.Resolved?
            let signIn: PersonaTokenIssuer.Unsent
            let committedCatalogHolds: Bool
            let userIDs: [String: String]
            var deferred = DeferredConstraints.none
            do {
                let opening = try RunOpening.read(on: connection, limits: limits, source: plan.source)
                opening.backendPID.map(watchBackend)
                seal = opening.seal
                // Whether the second session reads the catalog (waits for its start-up).
                let readsInBackground = background?.opened() == true
                if !readsInBackground {
                    resolvedHere = try PlanCatalogCheck.resolve(plan, on: connection)
                }
                subject = "creating the plan's users in auth.users"
                userIDs = try createUsers(identityColumns: opening.identityColumns)
                subject = "running the plan's setup"
                // With a second session, the clock and the catalog-write count that
                // signing in reads ride on the setup's round trip.
                let afterSetup = try runSetup(seal: seal, then: readsInBackground ? Self.afterSetupSQL(userIDs) : nil)
                deferred = opening.deferredConstraints
                try deferred.settle(on: connection, source: plan.source)
                (signIn, committedCatalogHolds) = try self.signIn(
                    seal: seal, userIDs: userIDs, background: background, catalogWritesBefore: opening.catalogWrites,
                    clockAndCatalogWrites: afterSetup)
            } catch {
                // A plan that does not match the catalog is reported first, as when it
                // was checked before anything ran.
                if let mistake = background?.resolutionFailure() { throw mistake }
                throw error
            }
            subject = "reading the catalog"
            let resolved = try resolvedHere ?? background!.resolved()
            // The seal is checked after the sign-in by the first unit of the next batch.
            // A persona whose sign-in failed has no token, so nothing to probe as it.
            let issued = signIn.issued
            var signedIn = plan
            signedIn.personas = plan.personas.filter { issued.requests[$0.name] != nil }
            let context = ProbeContext(
                connection: connection, plan: signedIn,
                requests: issued.requests.mapValues { request in
                    var capped = request
                    capped.roleSettings = limits.capped(request.roleSettings)
                    return capped
                }, seal: seal,
                impersonation: Impersonation(connection: connection, seal: seal), userIDs: userIDs,
                catalogReadByAdmin: resolved.catalogReader == seal.adminRole,
                deferredConstraints: deferred)
            var results: [ProbeResult] = issued.failures + unprovenResults(resolved, failed: issued.failures.compactMap(\.persona))
            // The truth and the probes run here; their results are read below.
            var readProbes: ProbeResultsReader? = try runTruthAndProbes(
                context: context, resolved: resolved, signIn: signIn, seal: seal, subject: &subject)
            // Every check in one round trip; one that the batch had to stop early runs
            // again on its own (see CheckProber.queue). The checks do not depend on the
            // probes' outcomes: they are sent first, and the server runs them while the
            // outcomes are read.
            subject = "running the plan's checks"
            let checkBatch = ProbeBatch(seal: seal, after: "probing the plan's relations", stopsAtLimits: false)
            if !plan.checks.isEmpty { try checkBatch.startSending(on: connection) }
            let checks = plan.checks.map { CheckProber(context: context).queue($0, checkBatch) }
            if !plan.checks.isEmpty { try checkBatch.finishSending(on: connection) }
            let probed = try readProbes!()
            // Dropped here, while the server runs the checks: freeing the batches and the
            // truths it holds took about a millisecond (issue 18), which, left to the end
            // of the run, came before the rollback was sent.
            readProbes = nil
            results += probed.relations + unplannedResults(resolved) + probed.functions
            if !plan.checks.isEmpty {
                try checkBatch.run(connection, after: "running the plan's checks")
            }
            for (check, read) in zip(plan.checks, checks) {
                subject = "running check '\(check.name)'"
                results.append(try read() ?? CheckProber(context: context).run(check))
            }
            var report = AccessPlanReport(
                planSource: plan.source, personas: plan.personas,
                relations: resolved.relations.map(\.plan.qualifiedName) + resolved.unplannedRelations.map(\.qualifiedName),
                functions: resolved.functions.map(\.signature) + resolved.unplannedFunctions.map(\.signature),
                access: Dictionary(uniqueKeysWithValues: resolved.relations.map { ($0.plan.qualifiedName, $0.plan.access) }),
                execute: Dictionary(uniqueKeysWithValues: resolved.functions.map { ($0.signature, $0.plan.execute) }),
                results: results, duration: ContinuousClock.now - started)
            report.issuedClaims = issued.requests.filter { name, _ in plan.persona(named: name)?.user != nil }
                .mapValues(\.claimsJSON)
            // What the run cannot prove or undo, read in one round trip.
            let notes = try (committedCatalogHolds ? background?.notes() : nil)
                ?? Self.readNotes(Self.noteQueries(for: plan), on: connection)
            (report.undoableSideEffects, report.standIns, report.sessionUserReaders) = (notes[0], notes[1], notes[2])
            return report
        }
    }

    /// Reads the results of `runTruthAndProbes`: the relations' (in the plan's order),
    /// then the functions'. It holds both batches and every relation's truth until it
    /// is released.
    private typealias ProbeResultsReader = () throws -> (relations: [ProbeResult], functions: [ProbeResult])

    /// Two round trips for every relation and function of the plan: the truth (as the
    /// admin, with each persona's claims), then every persona's probes, run and read
    /// from the server; the returned reader makes their results.
    private func runTruthAndProbes(
        context: ProbeContext, resolved: PlanCatalogCheck.Resolved, signIn: PersonaTokenIssuer.Unsent, seal: RunSeal,
        subject: inout String
    ) throws -> ProbeResultsReader {
        subject = signIn.rows.isEmpty
            ? "computing what is true of the plan's relations (their owner and sample SQL)"
            : "signing in the personas, then computing what is true of the plan's relations"
        let probers = resolved.relations.map {
            RelationProber(context: context, plan: $0.plan, relation: $0.catalog)
        }
        // Each batch is sent while it is made, a relation at a time: the server starts
        // on the first relations while the client makes the rest. The personas' session
        // rows, when still to be written, open the truth's batch: the truth reads them
        // (a policy may), and their round trip is the truth's.
        let truthBatch = ProbeBatch(seal: seal, after: "signing in the personas", leading: signIn.rows)
        try truthBatch.startSending(on: connection)
        let truths = probers.map { prober in
            defer { truthBatch.sendQueued() }
            return prober.queueTruth(truthBatch)
        }
        try truthBatch.run(
            connection, after: "computing the relations' truth (their owner or sample SQL)", checkingLeading: signIn.check)
        subject = "probing the plan's relations and functions"
        let probeBatch = ProbeBatch(seal: seal, after: "computing the relations' truth")
        probeBatch.roleStatementTimeouts = limits.shorterStatementTimeouts(Array(context.requests.values))
        try probeBatch.startSending(on: connection)
        var pending: [() throws -> [ProbeResult]] = []
        for (prober, truth) in zip(probers, truths) {
            pending.append(try prober.queueProbes(try Self.known(truth, of: prober, in: plan), probeBatch))
            probeBatch.sendQueued()
        }
        let functionResults = FunctionProber(context: context).queue(resolved.functions, probeBatch)
        try probeBatch.run(connection, after: "probing the plan's relations (their owner or sample SQL)")
        return { [truths] in
            _ = truths  // freed with the reader, not before: see `run`
            return (try pending.flatMap { try $0() }, try functionResults())
        }
    }

    /// A relation's truth; a server error computing it (its owner rule or sample SQL
    /// fails on the relation's rows: `split_part(name, '/', 1)::int` on a file whose
    /// folder is not a number) is the plan's, named with the relation, where it was the
    /// server's bare message. A materialized view that was never refreshed (`with no
    /// data`, 55000) has no rows to know: its read probes are still sent, and each shows
    /// what the API answers (that error, or 42501), where the whole run stopped.
    private static func known(
        _ truth: () throws -> RelationTruth, of prober: RelationProber, in plan: AccessPlan
    ) throws -> RelationTruth {
        let relation = prober.plan
        do {
            return try truth()
        } catch let error as PGError where error.sqlState == .objectNotInPrerequisiteState && prober.relation.kind == "m" {
            return RelationTruth.unreadable(by: plan.personas)
        } catch let error as PGError where error.kind == .server && !AccessPlanLimits.isLimit(error) {
            throw RelationTruthError(
                file: plan.source, line: relation.line > 0 ? relation.line : nil, relation: relation.qualifiedName,
                serverMessage: error.message + (error.sqlState.map { " (SQLSTATE \($0))" } ?? ""))
        }
    }

    /// Signs the personas in. What that reads of the catalog comes from the second
    /// session when it is open and the run has not changed the catalogs it read
    /// (then its notes hold too: `committedCatalogHolds`); otherwise from this one.
    /// `clockAndCatalogWrites`: `afterSetupSQL`'s answer when the setup's
    /// round trip read it (nil: read here).
    private func signIn(
        seal: RunSeal, userIDs: [String: String], background: CatalogReadsInBackground?, catalogWritesBefore: String?,
        clockAndCatalogWrites: QueryResult?
    ) throws -> (signIn: PersonaTokenIssuer.Unsent, committedCatalogHolds: Bool) {
        let issuer = PersonaTokenIssuer(
            connection: connection, plan: plan, userIDs: userIDs, adminRoleSetting: seal.roleSetting)
        // The session rows go at the head of the truth's batch when no hook reads them.
        guard let background, background.opened() else { return (try issuer.issue(rowsUnsent: true), false) }
        let row = try (clockAndCatalogWrites ?? connection.query(Self.afterSetupSQL(userIDs))).rows.first ?? []
        let now = SignInCatalog.clock(from: row.first ?? nil)
        // No row of those catalogs written since the run began: what the second session
        // read is what this one sees.
        let holds = row.count == 3 && catalogWritesBefore != nil && row[1] == catalogWritesBefore
        let catalog = try (holds ? background.signInCatalog() : nil) ?? SignInCatalog.read(connection, plan: plan)
        var stored = issuer
        stored.storedMetadata = PersonaTokenIssuer.storedMetadata(from: row.count == 3 ? row[2] : nil)
        return (try stored.issue(now: now, catalog: catalog, rowsUnsent: true), holds)
    }

    /// The database's clock (for the personas' tokens), the catalog-write count after
    /// the setup (`CatalogReadsInBackground.catalogWritesSQL`) and the users' stored
    /// metadata (`PersonaTokenIssuer.storedMetadataSQL`): what signing in reads on
    /// this session, riding on the setup's round trip.
    static func afterSetupSQL(_ userIDs: [String: String]) -> SQL {
        "select (\(SignInCatalog.clockSQL)), (\(CatalogReadsInBackground.catalogWritesSQL)), (\(PersonaTokenIssuer.storedMetadataSQL(of: Array(userIDs.values))))"
    }

    /// What the run cannot prove or undo (one query each, in the report's order): side
    /// effects a rollback cannot undo, the twin's stand-ins in use, `session_user` readers.
    static func noteQueries(for plan: AccessPlan) -> [SQL] {
        [UndoableSideEffects.query(schemas: plan.schemas), StandInExtensions.inUseSQL,
         SessionUserReaders.query(schemas: plan.schemas)]
    }

    /// The notes' rows (their first column), read in one round trip.
    static func readNotes(_ queries: [SQL], on connection: Connection) throws -> [[String]] {
        try CatalogReads.run(connection, queries).map { $0.rows.compactMap { $0.first ?? nil } }
    }

    /// Signs up each persona that has an account, by inserting into auth.users (so the
    /// project's own sign-up trigger runs). Returns persona name -> user id.
    private func createUsers(identityColumns: Set<String>) throws -> [String: String] {
        try PlanAccountCreator(connection: connection, plan: plan).createAccounts(knownIdentityColumns: identityColumns)
    }

    /// The setup's entries, sealed, in one round trip (`RunSeal.run(pieces:)`), with
    /// `last` after them; its result (nil when the plan has no setup).
    private func runSetup(seal: RunSeal, then last: SQL?) throws -> QueryResult? {
        try seal.run(
            pieces: plan.setup, origin: { "the plan's setup entry \($0 + 1)" },
            failed: { index, error in
                if AccessPlanLimits.isLimit(error) { return error }
                return AccessPlanError(
                    file: plan.source, line: nil, message: "the plan's setup entry \(index + 1) failed: \(error)")
            }, then: last)
    }

    /// The cells of personas whose sign-in failed: not probed, so not proven.
    private func unprovenResults(_ resolved: PlanCatalogCheck.Resolved, failed personas: [String]) -> [ProbeResult] {
        let subjects = resolved.relations.map { ($0.plan.qualifiedName, ProbeResult.SubjectKind.relation) }
            + resolved.functions.map { ($0.signature, ProbeResult.SubjectKind.function) }
        return personas.flatMap { persona in
            subjects.map { subject, kind in
                ProbeResult(
                    subjectKind: kind, subject: subject, persona: persona, operation: nil, probe: "probed",
                    expected: "the persona signs in", observed: "not probed: the persona's sign-in failed", passed: false)
            }
        }
    }

    /// Deny by default: anything exposed that the plan does not mention fails.
    private func unplannedResults(_ resolved: PlanCatalogCheck.Resolved) -> [ProbeResult] {
        resolved.unplannedRelations.map {
            ProbeResult(
                subjectKind: .relation, subject: $0.qualifiedName, persona: nil, operation: nil,
                probe: "planned", expected: "every exposed \($0.kindName) is in the plan",
                observed: "\($0.kindName) \($0.qualifiedName) is exposed but not in the plan", passed: false)
        } + resolved.unplannedFunctions.map {
            ProbeResult(
                subjectKind: .function, subject: $0.signature, persona: nil, operation: nil,
                probe: "planned", expected: "every exposed function is in the plan",
                observed: "function \($0.signature) is exposed but not in the plan", passed: false)
        }
    }
}

/// What every prober shares.
struct ProbeContext {
    let connection: Connection
    let plan: AccessPlan
    /// Persona name -> what PostgREST would set for its requests.
    let requests: [String: PersonaRequest]
    let seal: RunSeal
    let impersonation: Impersonation
    /// Persona name -> the id of its account in auth.users (signed-in personas).
    var userIDs: [String: String] = [:]
    /// Whether the catalog was read as the admin the truth is computed as (then a
    /// relation's `rowSecurityAppliesToReader` is the admin's).
    var catalogReadByAdmin = false
    /// The database's initially deferred constraints, which every write probe then
    /// fires (`DeferredConstraints`).
    var deferredConstraints = DeferredConstraints.none

    /// Whether there are any (`deferredConstraints`).
    var firesDeferredConstraints: Bool { deferredConstraints.exist }

    /// The persona's request settings (every persona in `plan` has one).
    func request(_ persona: Persona) -> PersonaRequest {
        requests[persona.name] ?? .nobody
    }

    /// The persona's request with other `user_metadata` in its token, as after the
    /// user changed their own metadata (Supabase Auth's update-user call).
    func request(_ persona: Persona, userMetadataJSON: String) -> PersonaRequest {
        var request = request(persona)
        if var claims = JSONText.object(request.claimsJSON), let metadata = JSONText.object(userMetadataJSON) {
            claims["user_metadata"] = metadata
            request.claimsJSON = JSONText.encode(claims)
        }
        return request
    }

    /// Another signed-in persona than `persona` (for "another user's row").
    func otherUser(than persona: Persona) -> Persona? {
        plan.personas.first { $0.user != nil && $0.name != persona.name }
    }

    /// The first signed-in persona, whose rows stand for "a user's row" when the
    /// acting persona has no user of its own (anon, service_role).
    var someUser: Persona? { plan.personas.first { $0.user != nil } }

    /// Whether values print, and names resolve, alike for every persona (`PersonaRequest.sharesTruthSettings`).
    var personasShareTruthSettings: Bool {
        let requests = plan.personas.map(request)
        return requests.allSatisfy { $0.sharesTruthSettings(requests[0]) }
    }
}
