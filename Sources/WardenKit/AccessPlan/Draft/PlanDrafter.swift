import Foundation
import WardenPostgres

/// Drafts an access plan from a live database: every table, view and function of
/// the exposed schemas; personas anon, two signed-in users and service_role; owner
/// rules and samples from the catalog; and every cell as the database behaves now.
///
/// It observes the way `pgwarden test` proves (one connection; the plan's users,
/// rows and probes inside transactions that are rolled back, so nothing is left
/// changed): first a run that expects nothing, whose failures show what is allowed;
/// then a run of the drafted cells, which must pass.
///
/// ```swift
/// let draft = try PlanDrafter(connection: connection).draft()
/// try draft.yaml.write(to: planURL, atomically: true, encoding: .utf8)
/// ```
public struct PlanDrafter {
    let connection: Connection
    let schemas: [String]
    /// Signed-in persona name -> its `raw_user_meta_data` (JSON object text), for a
    /// sign-up trigger that requires some (e.g. a `handle`).
    let userMetadata: [String: String]
    /// The project's custom access token hook, called at the personas' sign-in as
    /// `pgwarden test` will call it (from the config.toml next to the plan).
    let accessTokenHook: AccessTokenHook?

    /// - Parameter connection: an admin connection, as for `AccessPlanRunner`.
    /// - Parameter userMetadata: user metadata for the signed-in personas: a JSON object
    ///   for both, or `ava=<object>` / `ben=<object>` for one (the later entry wins).
    /// - Parameter accessTokenHook: the hook `pgwarden test` will call (see
    ///   `ProjectAPISettings.accessTokenHook`), so that the draft observes the same tokens.
    /// - Throws: `AccessPlanError` when a `userMetadata` entry is not a JSON object.
    public init(connection: Connection, schemas: [String] = ["public"], userMetadata: [String] = [],
                 accessTokenHook: AccessTokenHook? = nil) throws {
        self.connection = connection
        self.schemas = schemas
        self.accessTokenHook = accessTokenHook
        self.userMetadata = try DraftUserMetadata(userMetadata).byPersona
    }

    /// A drafter that looks as the project's API is set up (`ProjectAPISettings`): its
    /// exposed schemas, its requests' `search_path` and its access token hook.
    public init(connection: Connection, api: ProjectAPISettings, userMetadata: [String] = []) throws {
        try self.init(
            connection: connection, schemas: api.exposedSchemas, userMetadata: userMetadata, accessTokenHook: api.accessTokenHook)
        extraSearchPath = api.extraSearchPath
        signUpsEnabled = api.signUpsEnabled
    }

    /// Whether clients may sign up (`ProjectAPISettings.signUpsEnabled`). Where they may
    /// not, what a sign-up's metadata gives a new user is a WARN, not a DANGER: only the
    /// admin API makes users then, and it chooses their metadata (an HR app with
    /// `enable_signup = false` had "a new user may give themselves role 'admin'"; round
    /// thirty-seven).
    public var signUpsEnabled = true

    /// When true, a signed-in persona whose sign-up the database refuses (a sign-up
    /// trigger that needs user metadata it lacks) is left out of the observation and
    /// named in `PlanDraft.leftOut`, instead of failing the draft: what `dev` and `test`
    /// do without a plan. A plan drafted so lacks those personas: keep it false to write one.
    public var leavesOutRefusedPersonas = false

    /// The schemas after a request's own in its `search_path`, as the plan `pgwarden
    /// test` will run would have them (see `ProjectAPISettings.extraSearchPath`).
    public var extraSearchPath = AccessPlan.supabaseExtraSearchPath

    static let emails = ["ava.draft@example.com", "ben.draft@example.com"]

    /// Check name -> its table and DANGER, for the write checks that went through; one
    /// that opens the same hole as another that went through (`sameHoleAs`) is said in
    /// that one's DANGER instead of a line of its own.
    static func checkDangers(_ dangerous: [DraftWriteCheck]) -> [String: (table: String, danger: String)] {
        let names = Set(dangerous.map(\.check.name))
        var dangers: [String: (table: String, danger: String)] = [:]
        for write in dangerous where write.sameHoleAs.map(names.contains) != true {
            dangers[write.check.name] = dangers[write.check.name] ?? (write.table, write.danger)
        }
        for write in dangerous {
            guard let other = write.sameHoleAs, let joined = dangers[other] else { continue }
            dangers[other] = (joined.table, joined.danger + "; so does moving an own row there by an update (\(write.check.name))")
        }
        return dangers
    }

    /// The session a run of the draft's plan goes on: a new one, with the caller's
    /// settings, where the caller's is idle. A session that has impersonated a persona
    /// keeps its `request.*` settings defined (empty, not NULL: PostgreSQL cannot forget
    /// a custom setting), so a sign-up trigger casting `current_setting('request.headers',
    /// true)` to json, NULL in Supabase Auth's own session, failed (22P02) on the draft's
    /// second run, and a ticketing app's `dev` stopped (round thirty-five). Inside the
    /// caller's transaction, that session, which alone sees what it holds.
    private func runSession() throws -> Connection {
        connection.transactionStatus == .idle ? try Connection(connection.settings) : connection
    }

    /// Observes the database and writes the plan that states what it allows now.
    /// - Parameter source: how messages about the plan name it (a file that does not exist yet).
    public func draft(source: String = "the drafted plan") throws -> PlanDraft {
        var personas = Self.personas(metadata: userMetadata)
        var leftOut: [PersonaSignUpRefusal] = []
        // Without metadata from the user, the metadata a refusing sign-up trigger reads
        // is made up for the personas (`SignUpMetadataGuess`), and said.
        var guess: SignUpMetadataGuess?
        if leavesOutRefusedPersonas || userMetadata.isEmpty {
            let signedUp = try SignUpMetadataGuess.signUp(personas, guessing: userMetadata.isEmpty, on: connection, schemas: schemas)
            (personas, guess) = (signedUp.personas, signedUp.guess)
            if leavesOutRefusedPersonas { leftOut = signedUp.refusals }
            personas.removeAll { persona in leftOut.contains { $0.persona == persona.name } }
        }
        let emails = personas.compactMap { $0.user?.email }
        // What the run will resolve the plan against: a relation none of the personas'
        // roles may reach (storage.migrations) is not exposed, so it is not drafted.
        let exposed = try ExposedCatalog.read(connection, schemas: schemas, roles: personas.map(\.role))
        let catalog = try DraftCatalog.read(connection, schemas: schemas)
        let storage = try StoragePolicies.read(connection)
        var ownership = DraftOwnership(catalog: catalog, storageBucket: nil)
        ownership.storageBucket = storage.objectBucket(ownedBy: ownership.ownerRule(of: "storage.objects"))
        var plan = AccessPlan(
            source: source, schemas: schemas, personas: personas, setup: [],
            relations: exposed.relations.map { relation in
                let name = relation.qualifiedName
                var drafted = RelationPlan(
                    schema: relation.schema, name: relation.name,
                    owner: relation.isTable ? ownership.ownerRule(of: name) : viewOwner(relation, catalog, ownership), columns: nil,
                    sample: relation.isTable ? ownership.sample(of: name) : [], beforeInsert: nil,
                    access: [:], line: 0)
                if relation.isTable, drafted.owner != nil { drafted.shared = ownership.sharedRule(of: name) }
                return drafted
            },
            functions: exposed.callableFunctions.map { FunctionPlan(signature: $0.signature, execute: [:], line: 0) },
            checks: [], accessTokenHook: accessTokenHook, extraSearchPath: extraSearchPath)
        let exposedTables = exposed.relations.filter(\.isTable)
        let tables = Dictionary(exposedTables.map { ($0.qualifiedName, $0) }) { first, _ in first }
        // A foreign key names its table quoted as SQL (`public."Trip Log"`).
        let byQuotedName = Dictionary(exposedTables.map {
            ("\(DraftOwnership.sqlName($0.schema)).\(DraftOwnership.sqlName($0.name))", $0.qualifiedName)
        }) { first, _ in first }
        // A key of several columns counts too (`(product_id, lab_id) -> pricing`: the log
        // was made before the pricing it names, its lab NULL, and every cell "cannot probe").
        // So do the tables an insert trigger writes rows into, by what those rows need
        // (`items`' trigger logging the user into `item_events (user_id -> profiles)`:
        // items came before any profile, the log refused each item, and 40 cells of an
        // asset tracker were "cannot probe").
        // What each table's insert triggers write, read once (a regular expression per
        // pair of tables: asked of every other table, for each table, it was quadratic).
        let triggerWrites = Dictionary(exposedTables.map(\.qualifiedName).map { table in
            (table, ownership.tablesWrittenByInsertTriggers(of: table))
        }) { first, _ in first }
        // And what they read: a guard refusing a writer who is no member of the row's
        // team needs the memberships first (made last, the tasks a workspace trigger
        // guards got no rows: 62 of 183 probes unprobed; round thirty-nine).
        let triggerReads = Dictionary(exposedTables.map(\.qualifiedName).map { table in
            (table, ownership.tablesReadByTriggers(of: table, besides: Set(triggerWrites[table] ?? [])))
        }) { first, _ in first }
        let setupOrder = DraftSetupOrder.ordered(exposedTables.map(\.qualifiedName)) { table in
            let keys = catalog.columns[table, default: []].flatMap { column in
                [column.reference?.table, column.keyPart?.referencedTable].compactMap { $0.flatMap { byQuotedName[$0] } }
                    .map { DraftSetupOrder.Reference(table: $0, strong: column.notNull) }
            }
            // (Not a table the trigger writes itself: `profiles`' trigger making the
            // user's first workspace, then its membership, needs no workspace first.)
            let writes = triggerWrites[table] ?? []
            let written = writes.flatMap { other in
                catalog.columns[other, default: []].compactMap { column -> DraftSetupOrder.Reference? in
                    guard column.notNull, let referenced = column.reference?.table, !writes.contains(referenced),
                          let name = byQuotedName[referenced], name != table, name != other else { return nil }
                    return DraftSetupOrder.Reference(table: name, strong: true)
                }
            }
            // And a table written by another's insert trigger after that table, where no
            // cycle forbids it: the setup's own rows are then the newest, which the rows
            // after them pick (made before `profiles`, whose trigger made a second
            // workspace and its membership, the setup's documents sat in a workspace the
            // persona's membership did not name: 12 cells "cannot probe"; round thirty-eight).
            let writers = exposedTables.map(\.qualifiedName).filter { other in
                other != table && triggerWrites[other]?.contains(table) == true
            }.map { DraftSetupOrder.Reference(table: $0, strong: false) }
            let read = (triggerReads[table] ?? []).filter { tables[$0] != nil }
                .map { DraftSetupOrder.Reference(table: $0, strong: false) }
            return keys + written + writers + read
        }
        // Someone who is no persona, for rows that need two different users: signed up
        // first, and given a row of each table keyed by users it is named through.
        let standIns = emails.isEmpty ? (setup: nil, emailsByTable: [:])
            : ownership.standIns(tables: setupOrder, metadataOf: personas.first { $0.user != nil })
        // The setup's entries, made again where an owner rule is replaced.
        func makeSetup() -> [String] {
            var setup = standIns.setup.map { [$0] } ?? []
            if schemas.contains("storage"), let buckets = storage.missingBucketsSetup { setup.insert(buckets, at: 0) }
            setup += setupOrder.compactMap { tables[$0] }.compactMap { relation in
                let quoted = "\(DraftOwnership.sqlName(relation.schema)).\(DraftOwnership.sqlName(relation.name))"
                return ownership.setupRows(
                    table: relation.qualifiedName, quotedTable: quoted,
                    emails: emails + (standIns.emailsByTable[relation.qualifiedName] ?? []))
                    ?? (emails.isEmpty ? nil : ownership.privilegeHolderRow(table: relation.qualifiedName, quotedTable: quoted))
            }
            return setup
        }
        plan.setup = makeSetup()
        // The second persona's file, for the checks of the other buckets the storage policies name.
        let benFile = tables["storage.objects"] == nil ? nil : DraftWriteCheck.writerAndOther(personas).flatMap {
            ownership.setupRows(table: "storage.objects", quotedTable: "storage.objects", emails: [$0.otherEmail])
        }
        // Whether the first signed-in persona can join the other's rows through a
        // membership table, write into the other's rows, give itself a privilege, or
        // write the rows shared with every user:
        // observed as checks, kept as they came out (`DraftWriteCheck`).
        let writeChecks = DraftWriteCheck.joins(ownership: ownership, exposed: byQuotedName, personas: personas)
            + DraftWriteCheck.parentRowWrites(ownership: ownership, exposed: byQuotedName, personas: personas)
            + DraftWriteCheck.selfPromotions(ownership: ownership, exposed: byQuotedName, personas: personas)
            + DraftWriteCheck.forgedAuthors(ownership: ownership, exposed: byQuotedName, personas: personas)
            + DraftWriteCheck.valueClaims(ownership: ownership, exposed: byQuotedName, personas: personas)
            + DraftWriteCheck.signUpMetadataGrants(ownership: ownership, exposed: byQuotedName, personas: personas)
            + DraftWriteCheck.guardedLimits(ownership: ownership, exposed: byQuotedName, personas: personas)
            + DraftWriteCheck.judgedColumns(ownership: ownership, exposed: byQuotedName, personas: personas)
            + DraftWriteCheck.otherBuckets(storage, chosen: ownership.storageBucket, personas: personas, benFile: benFile,
                                           ownership: ownership)
            + DraftWriteCheck.sharedRows(ownership: ownership, exposed: byQuotedName, personas: personas)
        plan.checks = writeChecks.map(\.check)
        let refusals = DraftSetupRefusals()
        for table in exposedTables.map(\.qualifiedName) {
            refusals.skipped[table] = ownership.setupSkipReason(of: table)
        }
        // An owner rule drafted from the policies that fails on the relation's rows (a
        // cast of a file's folder to a number) is left out, with a NOTE, and the
        // observation runs again: it lost the whole draft.
        var unusableRules: [String: String] = [:]
        func observe() throws -> [ProbeResult] {
            var observedResults: [ProbeResult]?
            while observedResults == nil {
                do {
                    let session = try runSession()
                    observedResults = try refusals.reading(session) {
                        try AccessPlanRunner(connection: session, plan: plan).run().results
                    }
                } catch let error as RelationTruthError {
                    guard let index = plan.relations.firstIndex(where: { $0.qualifiedName == error.relation }),
                          let rule = plan.relations[index].owner,
                          ownership.failingOwnerRules[error.relation]?.contains(rule) != true else { throw error }
                    ownership.failingOwnerRules[error.relation, default: []].insert(rule)
                    let relation = plan.relations[index]
                    // Another of its policies' rules, where there is one (a select policy through
                    // a helper with an ambiguous column beside `for all using (team_id =
                    // coach_team(auth.uid()))`: the table had no owner and no rows, and "may
                    // insert every row" was a made-up DANGER). The setup is made again, as
                    // other tables' rows may name this one's by its rule.
                    if let next = ownership.ownerRule(of: error.relation) {
                        unusableRules[error.relation] = "the owner rule of one of its policies, \(rule), fails on its rows "
                            + "(\(error.serverMessage)), so the draft takes another's, \(next)"
                        plan.relations[index].owner = next
                        plan.relations[index].shared = ownership.sharedRule(of: error.relation)
                        plan.relations[index].sample = ownership.sample(of: error.relation)
                        plan.setup = makeSetup()
                        continue
                    }
                    unusableRules[error.relation] = "the owner rule its policies give, \(rule), fails on its rows "
                        + "(\(error.serverMessage)), so the draft states it without one; write one that holds for every row"
                    plan.relations[index].owner = nil
                    plan.setup.removeAll(where: Self.makesRows(of: relation))
                } catch let refusal as DeferredSetupRefusal {
                    // Setup rows that a deferred constraint refuses at commit (a group with no
                    // owner among its members, when a trigger wants one): no client could
                    // commit them. That table's setup is left out, its cells' NOTE says why,
                    // and the observation runs again: the whole draft stopped on it.
                    let before = plan.setup.count
                    for refused in refusal.refusals {
                        refusals.refusedAtCommit(refused.table, refused.message)
                        if let relation = plan.relations.first(where: { $0.qualifiedName == refused.table }) {
                            plan.setup.removeAll(where: Self.makesRows(of: relation))
                        }
                    }
                    guard plan.setup.count < before else { throw refusal }
                }
            }
            return observedResults ?? []
        }
        var observedResults: [ProbeResult]? = try observe()
        // An owner rule that holds for none of the rows the setup made for any signed-in
        // persona gives way to another of its policies' rules, where one holds for them:
        // a teacher's grading rule (`exists (... courses c ... c.author_id = auth.uid())`),
        // taken first as the rule that governs writes, held for no student's score, and
        // every score's cells were "cannot probe" (an LMS, round thirty-six). Kept only
        // where the other rule holds for some persona's rows; otherwise put back.
        let signedIn = personas.filter { $0.user != nil }.map(\.name)
        let owningNoRow = DraftObservation(results: observedResults ?? []).ownerRulesOwningNoRow(plan.relations, signedIn: signedIn)
        var replaced: [(index: Int, relation: RelationPlan)] = []
        for index in owningNoRow {
            let relation = plan.relations[index], rule = relation.owner!
            ownership.failingOwnerRules[relation.qualifiedName, default: []].insert(rule)
            guard let next = ownership.ownerRule(of: relation.qualifiedName), next != rule else {
                ownership.failingOwnerRules[relation.qualifiedName]?.remove(rule)
                continue
            }
            replaced.append((index, relation))
            plan.relations[index].owner = next
            plan.relations[index].shared = ownership.sharedRule(of: relation.qualifiedName)
            plan.relations[index].sample = ownership.sample(of: relation.qualifiedName)
        }
        if !replaced.isEmpty {
            plan.setup = makeSetup()
            observedResults = try observe()
            let stillOwningNoRow = Set(DraftObservation(results: observedResults ?? []).ownerRulesOwningNoRow(
                plan.relations, signedIn: signedIn))
            for (index, relation) in replaced {
                if stillOwningNoRow.contains(index) {
                    ownership.failingOwnerRules[relation.qualifiedName]?.remove(relation.owner!)
                    plan.relations[index] = relation
                } else {
                    unusableRules[relation.qualifiedName] = unusableRules[relation.qualifiedName]
                        ?? "the owner rule of one of its policies, \(relation.owner!), holds for none of the rows the draft "
                        + "made for the signed-in personas, so the draft takes another's, \(plan.relations[index].owner!)"
                }
            }
            if replaced.contains(where: { stillOwningNoRow.contains($0.index) }) {
                plan.setup = makeSetup()
                observedResults = try observe()
            }
        }
        let observation = DraftObservation(results: observedResults ?? [])
        var notes: [String: [String: [String]]] = [:]
        for index in plan.relations.indices {
            let name = plan.relations[index].qualifiedName
            for persona in personas {
                let (access, found) = observation.access(name, persona.name)
                plan.relations[index].access[persona.name] = access
                if !found.isEmpty { notes[name, default: [:]][persona.name] = found.map { refusals.explain($0, table: name) } }
            }
        }
        for index in plan.functions.indices {
            for persona in personas {
                plan.functions[index].execute[persona.name] = observation.executes(plan.functions[index].signature, persona.name)
            }
        }
        // A write into rows the writer may read is the app working (a comment on a post).
        let checkWriter = DraftWriteCheck.writerAndOther(personas)?.writer.name ?? ""
        let joined = writeChecks.compactMap { write -> (DraftWriteCheck, (check: CustomCheck, dangerous: Bool))? in
            if let parent = write.hiddenParent, ![.own, .nothing].contains(observation.access(parent, checkWriter).access.select) {
                return nil
            }
            // An update of no own row proves nothing.
            if let table = write.needsOwnRow, observedResults?.contains(where: {
                $0.subject == table && $0.persona == checkWriter && $0.probe == "update own row" && $0.observed.hasPrefix("cannot probe")
            }) != false {
                return nil
            }
            return write.observed(observedResults?.first { $0.subjectKind == .check && $0.subject == write.check.name }).map { (write, $0) }
        }
        plan.checks = joined.map(\.1.check)
        let session = try runSession()
        let check = try refusals.reading(session) { try AccessPlanRunner(connection: session, plan: plan).run() }
        for failure in check.failures {
            let known = notes[failure.subject]?[failure.persona ?? "-"] ?? []
            guard !known.contains(where: { $0.hasPrefix("\(failure.probe):") }) else { continue }
            notes[failure.subject, default: [:]][failure.persona ?? "-", default: []].append(refusals.explain(
                "\(failure.probe): expected \(failure.expected); observed \(failure.observed)", table: failure.subject))
        }
        var linter = Linter(connection: connection, schemas: schemas)
        linter.api = ProjectAPISettings(exposedSchemas: schemas, extraSearchPath: extraSearchPath, accessTokenHook: accessTokenHook)
        linter.personas = personas
        // Its personas signed up in the run above (those refused are already left out).
        linter.checksSignUps = false
        var findings = try linter.run()
        findings.leftOut = leftOut
        findings.metadataGuess = guess
        var writer = PlanDraftWriter(plan: plan, notes: notes, securityDefiner: catalog.securityDefiner, findings: findings.dangers)
        writer.userColumns = catalog.ownersUserColumns
        for finding in findings.findings where finding.rule == .anonSecurityDefinerFunctionExecutable {
            if let signature = finding.signature, let consequence = finding.consequence { writer.anonCalls[signature] = consequence }
        }
        let dangerous = joined.filter(\.1.dangerous).map(\.0)
        writer.checkDangers = Self.checkDangers(signUpsEnabled ? dangerous : dangerous.filter { !$0.bySignUp })
        if !signUpsEnabled {
            for write in dangerous where write.bySignUp {
                writer.checkWarnings[write.check.name] = (write.table, Self.signUpsOffWarning + write.danger)
            }
        }
        let claimNotes = catalog.appMetadataNotes(carried: Self.appMetadataKeysCarried(by: check.issuedClaims))
            .merging(accessTokenHook == nil ? catalog.customClaimNotes
                        : Self.unusedHookClaimNotes(catalog.hookClaimsRead, issued: check.issuedClaims, plan: plan)) { earlier, _ in earlier }
        writer.relationNotes = refusals.skipped.merging(unusableRules) { skipped, _ in skipped }
            .merging(claimNotes) { earlier, _ in earlier }
        return PlanDraft(
            yaml: writer.render(), plan: plan, dangers: writer.dangers().count, verified: check.passed,
            report: check, dangerCells: writer.dangers(), warningCells: writer.warnings(), findings: findings,
            storagePolicies: storage, claimNotes: claimNotes)
    }

    /// How a sign-up check's WARN begins where sign-ups are off (`signUpsEnabled`).
    static let signUpsOffWarning = "sign-ups are off ([auth] enable_signup = false in supabase/config.toml), so only the "
        + "admin API makes users and chooses their metadata; turned on (here or in the hosted project's settings), "

    /// The `app_metadata` keys (lowercased) in every one of `issued` (persona -> claims
    /// JSON); none when there is no token.
    static func appMetadataKeysCarried(by issued: [String: String]) -> Set<String> {
        let keys = issued.values.map { claims in
            Set(((JSONText.object(claims)?["app_metadata"] as? [String: Any]) ?? [:]).keys.map { $0.lowercased() })
        }
        return keys.dropFirst().reduce(keys.first ?? []) { $0.intersection($1) }
    }

    /// Table -> a NOTE where its rules read a claim the project's custom access token
    /// hook issues (`user_role`, directly or through `has_role('dispatcher')`) and no
    /// signed-in persona was let do anything there: the claim the hook issued them (none,
    /// or a value the rules do not let in) made every cell `none`, and "no dangers found"
    /// said nothing of the users who hold it.
    static func unusedHookClaimNotes(_ read: [String: [String]], issued: [String: String], plan: AccessPlan) -> [String: String] {
        let claims = issued.compactMapValues(JSONText.object)
        let users = plan.personas.filter { $0.user != nil }.map(\.name)
        guard !users.isEmpty else { return [:] }
        return read.reduce(into: [:]) { notes, entry in
            let (table, names) = entry
            guard let relation = plan.relations.first(where: { $0.qualifiedName == table }) else { return }
            guard users.allSatisfy({ user in
                let access = relation.access[user] ?? .nothing
                return AccessOperation.allCases.allSatisfy { [.nothing, .denied].contains(access.scope(of: $0)) }
            }) else { return }
            let held = names.map { name in
                name + " (" + users.map { user in
                    let value = claims[user]?[name]
                    let shown = value == nil || value is NSNull ? "none" : JSONText.encode(value!)
                    return "\(user): \(shown)"
                }.joined(separator: ", ") + ")"
            }
            notes[table] = "its policies read the token's " + held.joined(separator: "; ")
                + ", which the project's custom access token hook issues, and no signed-in persona may do anything here: "
                + "these cells are those of users the rules do not let in; to probe one they do, give a persona what the "
                + "hook reads in the plan's setup, or claims: {\(names[0]): ...} (docs/access-plan-claims.md)"
        }
    }

    /// The signed-in personas among `personas` whose sign-up the database refuses.
    static func refusals(of personas: [Persona], on connection: Connection, schemas: [String]) throws -> [PersonaSignUpRefusal] {
        let plan = AccessPlan(
            source: "the drafted plan", schemas: schemas, personas: personas, setup: [],
            relations: [], functions: [], checks: [])
        return try PlanAccountCreator(connection: connection, plan: plan).signUpRefusals()
    }

    /// A view's owner rule: the first owner rule of a table it reads that is also a
    /// valid condition on the view's own columns (tried in a rolled-back transaction).
    private func viewOwner(_ view: ExposedCatalog.Relation, _ catalog: DraftCatalog, _ ownership: DraftOwnership) -> String? {
        let quoted = "\(DraftOwnership.sqlName(view.schema)).\(DraftOwnership.sqlName(view.name))"
        for rule in ownerRules(readBy: view.qualifiedName, catalog, ownership) {
            do {
                // Parsed and analysed, not planned: PREPARE checks the rule's names and
                // types against the view, which is the question, while planning it (the
                // join search over a view of many tables) took 20-60 ms a rule (issue 18).
                // A prepared statement outlives a rollback, so it is deallocated.
                try connection.rolledBack {
                    _ = try connection.query("prepare pgwarden_view_owner_rule as select 1 from \(raw: quoted) where (\(raw: rule))")
                    _ = try connection.query("deallocate pgwarden_view_owner_rule")
                }
                return rule
            } catch {
                continue
            }
        }
        return nil
    }

    /// The owner rules of the tables a view reads, also through views it reads
    /// (views on views), nearest first.
    private func ownerRules(readBy view: String, _ catalog: DraftCatalog, _ ownership: DraftOwnership, depth: Int = 0) -> [String] {
        guard depth < 8 else { return [] }
        return (catalog.viewSources[view] ?? []).flatMap { source -> [String] in
            if let rule = ownership.ownerRule(of: source) { return [rule] }
            return ownerRules(readBy: source, catalog, ownership, depth: depth + 1)
        }
    }

    /// The drafted signed-in personas' names, in the order of `emails`.
    static let names = ["ava", "ben"]

    /// Whether the database has what a draft acts through: the API roles and `auth.users`
    /// (a Supabase project, its twin, or plain PostgreSQL after `pgwarden bootstrap`).
    public static func canObserve(_ connection: Connection) throws -> Bool {
        try connection.fetchBool(
            """
            select to_regrole('anon') is not null and to_regrole('authenticated') is not null
               and to_regrole('service_role') is not null and to_regclass('auth.users') is not null
            """)
    }

    static func personas(metadata: [String: String] = [:]) -> [Persona] {
        let user = { (index: Int) in
            PlanUser(email: emails[index], metadataJSON: metadata[names[index]] ?? "{}",
                     appMetadataJSON: #"{"provider":"email","providers":["email"]}"#)
        }
        return [
            Persona(name: "anon", role: "anon", user: nil, line: 0),
            Persona(name: names[0], role: "authenticated", user: user(0), line: 0),
            Persona(name: names[1], role: "authenticated", user: user(1), line: 0),
            Persona(name: "service", role: "service_role", user: nil, line: 0),
        ]
    }
}

/// A drafted plan: its YAML text and what it says.
public struct PlanDraft: Sendable {
    /// The plan file's text, with a DANGER comment on each cell that looks dangerous.
    public internal(set) var yaml: String
    /// The drafted plan, as read back from `yaml`.
    public internal(set) var plan: AccessPlan
    /// Cells marked DANGER in the YAML.
    public internal(set) var dangers: Int
    /// True when the drafted cells held on a second run (what `pgwarden test` would say).
    public internal(set) var verified: Bool
    /// That second run: the access matrix as observed.
    public internal(set) var report: AccessPlanReport
    /// Every cell marked DANGER, as `subject · persona: why`.
    public internal(set) var dangerCells: [String]
    /// The cells marked WARN for a security definer function anon may execute whose call
    /// as anon, by `pgwarden lint`, could not show what it does (it refused anon with its
    /// own error, or its arguments were made up), as `subject · persona: why`. One lint
    /// rates HARMLESS is marked WARN in `yaml` only, as lint reports it.
    public internal(set) var warningCells: [String] = []
    /// What `pgwarden lint` finds, each finding's consequence proven.
    public internal(set) var findings: LintReport
    /// The signed-in personas left out because the database refused their sign-up
    /// (only with `PlanDrafter.leavesOutRefusedPersonas`); empty when all were observed.
    /// The lint's report carries them (`LintReport.leftOut`).
    public var leftOut: [PersonaSignUpRefusal] { findings.leftOut }
    /// The project's policies on Supabase Storage's tables (observed only when the
    /// schemas include `storage`: see `StoragePolicies.unobservedLines`).
    public internal(set) var storagePolicies = StoragePolicies(tables: [])
    /// Relation -> why its cells may say less than its policies allow: they read claims
    /// (`app_metadata`, a hook's) the drafted personas' tokens do not carry.
    public internal(set) var claimNotes: [String: String] = [:]

    /// How the draft fails its own run (when it does): the cells its NOTEs name, and the
    /// checks that did not come out again as they did (named: "the cells marked NOTE"
    /// was blamed for a check a plan had no NOTE on).
    public var ownRunFailures: String { Self.ownRunFailures(of: report) }

    /// `ownRunFailures` of the draft's own run `report`.
    static func ownRunFailures(of report: AccessPlanReport) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let checks = report.failures.filter { $0.subjectKind == .check }
        var why: [String] = []
        if report.failures.count > checks.count { why.append("the cells marked NOTE could not be stated") }
        if !checks.isEmpty {
            why.append("\(count(checks.count, "check")) came out otherwise than when drafted ("
                + checks.map { "'\($0.subject)'" }.joined(separator: ", ") + ")")
        }
        return "pgwarden test fails \(report.failures.count) of \(count(report.results.count, "probe")) with it: "
            + why.joined(separator: "; ")
    }
}

extension PlanDrafter {
    /// Whether a setup entry inserts rows into `relation`.
    fileprivate static func makesRows(of relation: RelationPlan) -> (String) -> Bool {
        let quoted = "\(DraftOwnership.sqlName(relation.schema)).\(DraftOwnership.sqlName(relation.name))"
        return { $0.contains("insert into \(quoted) (") }
    }
}
