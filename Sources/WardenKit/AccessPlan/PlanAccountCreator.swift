import Foundation
import WardenPostgres

/// Creates the accounts of a plan's signed-in personas inside the run's transaction,
/// as Supabase Auth would: an `auth.users` row (which fires the project's sign-up
/// trigger) and, where the database has Supabase's `auth.identities` table, the
/// identity row of the persona's provider. Anonymous users get no identity, as on
/// Supabase ("Anonymous users have no identity until they link an identity to their
/// user": https://supabase.com/docs/guides/auth/identities).
struct PlanAccountCreator {
    let connection: Connection
    let plan: AccessPlan

    /// Persona name -> the new account's id.
    ///
    /// Two round trips whatever the number of personas: the identity table's columns,
    /// then every account in one pipelined unit (each user and its identity inserted in
    /// a savepoint of their own). The first statement that fails stops the rest, as
    /// when they were sent one by one; the error names the persona (and, for a
    /// sign-up trigger's refusal, the trigger). A user that a BEFORE INSERT trigger
    /// skipped (returned NULL: no row, no error) is refused too, naming those triggers.
    ///
    /// `knownIdentityColumns`: auth.identities' columns when the caller read them in this
    /// transaction (`identityColumnsSQL`; the run reads them in its first round trip):
    /// then one round trip.
    func createAccounts(knownIdentityColumns: Set<String>? = nil) throws -> [String: String] {
        let users = plan.personas.compactMap { persona in persona.user.map { (persona, $0, UUID().uuidString.lowercased()) } }
        guard !users.isEmpty else { return [:] }
        let identityColumns = users.contains { !$0.1.isAnonymous }
            ? try knownIdentityColumns ?? readIdentityColumns() : []
        var statements: [SQL] = []
        var owners: [(persona: Persona, user: PlanUser, step: SignUpStep)] = []
        for (persona, user, id) in users {
            for (statement, step) in signUpSteps(id: id, user, identityColumns: identityColumns) {
                statements.append(statement)
                owners.append((persona, user, step))
            }
        }
        var batch = PipelinedBatch()
        batch.add(statements)
        let outcomes = try connection.run(batch)[0]
        for (index, outcome) in outcomes.enumerated() {
            let owner = owners[index]
            // Checked before the foreign-key error a skipped user's identity then meets.
            if owner.step == .user, Self.madeNoRow(outcome) {
                if index + 1 < outcomes.count, case .error = outcomes[index + 1] {
                    try connection.rollBackAndRelease(savepoint: Self.savepoint)
                }
                throw try skippedSignUp(owner.user, persona: owner.persona)
            }
            guard case .error(let error) = outcome else { continue }
            if owner.step != .savepoint { try connection.rollBackAndRelease(savepoint: Self.savepoint) }
            if owner.step == .user {
                try explainSignUp(error, owner.user, persona: owner.persona)
            }
            let who = owner.user.isAnonymous ? "an anonymous user" : owner.user.email
            throw AccessPlanError(
                file: plan.source, line: owner.persona.line,
                message: "creating the user of persona '\(owner.persona.name)' (\(who)) failed: \(error.message)")
        }
        return Dictionary(uniqueKeysWithValues: users.map { ($0.0.name, $0.2) })
    }

    /// Signs `users` (each accepted on its own) up together, in order, in a savepoint that
    /// is then rolled back: the first whose sign-up fails with the others in, and its
    /// error (nil: they fit together).
    private func collidingSignUp(_ users: [(Persona, PlanUser)], identityColumns: Set<String>) throws
        -> (persona: String, error: PGError)?
    {
        guard users.count > 1 else { return nil }
        var unit: [SQL] = ["savepoint pgwarden_sign_up_together"]
        var owners: [String?] = [nil]
        for (persona, user) in users {
            let steps = signUpSteps(id: UUID().uuidString.lowercased(), user, identityColumns: identityColumns)
            unit += steps.map(\.statement)
            owners += steps.map { _ in persona.name }
        }
        var batch = PipelinedBatch()
        let together = batch.add(unit)
        // A unit of its own: it runs whether a sign-up failed or not.
        let undo = batch.add(["rollback to savepoint pgwarden_sign_up_together", "release savepoint pgwarden_sign_up_together"])
        let outcomes = try connection.run(batch)
        for outcome in outcomes[undo] { _ = try outcome.get() }
        for (index, outcome) in outcomes[together].enumerated() {
            if case .error(let error) = outcome, error.sqlState != nil, let persona = owners[index] { return (persona, error) }
        }
        return nil
    }

    private static let savepoint = "pgwarden_sign_up"

    /// One user's sign-up as the run sends it, each statement with what it does: a
    /// savepoint, the auth.users row and (for a signed-in user, when auth.identities has
    /// the columns) its identity, the release. The identity is inside the savepoint: a
    /// failure of either leaves it open to roll back to.
    private func signUpSteps(id: String, _ user: PlanUser, identityColumns: Set<String>)
        -> [(statement: SQL, step: SignUpStep)]
    {
        var steps: [(statement: SQL, step: SignUpStep)] = [("savepoint \(raw: Self.savepoint)", .savepoint), (insertUser(id: id, user), .user)]
        if !user.isAnonymous, Self.identityNeeds.isSubset(of: identityColumns) {
            steps.append((insertIdentity(userID: id, user, columns: identityColumns), .identity))
        }
        steps.append(("release savepoint \(raw: Self.savepoint)", .savepoint))
        return steps
    }

    /// What a statement of the sign-up unit does.
    private enum SignUpStep { case savepoint, user, identity }

    /// An insert into auth.users that succeeded and made no row: a BEFORE INSERT
    /// trigger returned NULL (the insert returns the new row's id otherwise).
    private static func madeNoRow(_ outcome: PipelinedBatch.Outcome) -> Bool {
        if case .result(let result) = outcome { return result.rows.isEmpty }
        return false
    }

    /// A sign-up that a BEFORE INSERT trigger skipped (returned NULL): the run cannot
    /// act as a user that does not exist; says which triggers could have skipped it.
    private func skippedSignUp(_ user: PlanUser, persona: Persona) throws -> AccessPlanError {
        let who = user.isAnonymous ? "an anonymous user" : user.email
        let triggers = try SignUpTriggers.read(connection).rowSkippers
        return AccessPlanError(
            file: plan.source, line: persona.line > 0 ? persona.line : nil,
            message: "creating the user of persona '\(persona.name)' (\(who)) failed: "
                + "\(SignUpTriggers.skippedRowMessage(triggers: triggers)); its raw_user_meta_data was \(user.metadataJSON) "
                + "(a plan gives it with the persona's metadata: {...}; plan draft with --user-metadata)")
    }

    /// The signed-in personas the database would refuse to sign up, without keeping
    /// anything: inside a transaction (or savepoint) that is rolled back, each account
    /// is inserted (with its identity) in a savepoint that is then rolled back, all in
    /// one pipelined batch (two round trips in all, and one more per refusal to name its
    /// trigger). Each persona is tried on its own, then those accepted all together, in
    /// order, as the run signs them up (one more round trip): two personas that collide
    /// with each other (a sign-up trigger writing the same `--user-metadata` handle into a
    /// unique column) make the later one refused, where the run's own sign-up failed.
    func signUpRefusals() throws -> [PersonaSignUpRefusal] {
        let users = plan.personas.compactMap { persona in persona.user.map { (persona, $0) } }
        guard !users.isEmpty else { return [] }
        return try connection.rolledBack {
            let identityColumns = users.contains { !$0.1.isAnonymous } ? try readIdentityColumns() : []
            let savepoint = "pgwarden_sign_up_check"
            var batch = PipelinedBatch()
            var tries: [Int] = []
            var undos: [Int] = []
            for (_, user) in users {
                let inserts = signUpSteps(id: UUID().uuidString.lowercased(), user, identityColumns: identityColumns)
                    .filter { $0.step != .savepoint }.map(\.statement)
                tries.append(batch.add(["savepoint \(raw: savepoint)"] + inserts))
                // A unit of its own: it runs whether the try failed or not.
                undos.append(batch.add(["rollback to savepoint \(raw: savepoint)", "release savepoint \(raw: savepoint)"]))
            }
            let outcomes = try connection.run(batch)
            for undo in undos { for outcome in outcomes[undo] { _ = try outcome.get() } }
            var refusals: [PersonaSignUpRefusal] = []
            // The triggers on auth.users, read once, when a refusal needs them.
            var read: SignUpTriggers?
            func triggers() throws -> SignUpTriggers {
                if let read { return read }
                let triggers = try SignUpTriggers.read(connection)
                read = triggers
                return triggers
            }
            let collision = try collidingSignUp(users.enumerated().filter { position, _ in
                outcomes[tries[position]].allSatisfy { if case .error = $0 { return false } else { return true } }
                    && !(outcomes[tries[position]].count > 1 && Self.madeNoRow(outcomes[tries[position]][1]))
            }.map(\.element), identityColumns: identityColumns)
            // A refusal the server raised, naming the trigger that raised it.
            func refusal(_ persona: Persona, _ user: PlanUser, _ error: PGError) throws -> PersonaSignUpRefusal {
                let fromTrigger = error.context?.isEmpty == false
                let keys = fromTrigger ? try triggers().metadataKeys(of: error) : []
                var refusal = PersonaSignUpRefusal(
                    persona: persona.name, email: user.isAnonymous ? "an anonymous user" : user.email,
                    trigger: fromTrigger ? try triggers().culprit(of: error) : nil,
                    sqlState: error.sqlState?.rawValue, message: error.message, detail: error.detail,
                    metadataJSON: user.metadataJSON, metadataKeys: keys)
                refusal.metadataValues = fromTrigger ? try triggers().metadataValues(of: error, keys: keys) : [:]
                refusal.triggerReadsMetadata = fromTrigger ? try triggers().readMetadata(error) : nil
                return refusal
            }
            for ((persona, user), index) in zip(users, tries) {
                if let collision, collision.persona == persona.name {
                    refusals.append(try refusal(persona, user, collision.error))
                    continue
                }
                if outcomes[index].count > 1, Self.madeNoRow(outcomes[index][1]) {
                    refusals.append(PersonaSignUpRefusal(
                        persona: persona.name, email: user.isAnonymous ? "an anonymous user" : user.email,
                        trigger: try triggers().rowSkippers, sqlState: nil,
                        message: SignUpTriggers.skippedRowMessage(triggers: nil), detail: nil, metadataJSON: user.metadataJSON))
                    continue
                }
                for case .error(let error) in outcomes[index] where error.sqlState != nil {
                    refusals.append(try refusal(persona, user, error))
                }
            }
            return refusals
        }
    }

    /// When the project's sign-up trigger refused the user, says which trigger and
    /// what it raised (the insert's savepoint already rolled back).
    private func explainSignUp(_ error: PGError, _ user: PlanUser, persona: Persona) throws {
        guard error.context?.isEmpty == false, let trigger = try SignUpTriggers.read(connection).culprit(of: error) else { return }
        let who = user.isAnonymous ? "an anonymous user" : user.email
        let sqlState = error.sqlState?.rawValue
        let advice = PersonaSignUpRefusal.failsWhateverTheMetadata(sqlState)
            ? "(\(PersonaSignUpRefusal.brokenTriggerAdvice(sqlState: sqlState)))"
            : "(a plan gives it with the persona's metadata: {...}; plan draft with --user-metadata)"
        throw AccessPlanError(
            file: plan.source, line: persona.line > 0 ? persona.line : nil,
            message: "creating the user of persona '\(persona.name)' (\(who)) failed in \(trigger) on auth.users: "
                + "\(error.message)\(error.detail.map { " (\($0))" } ?? ""); its raw_user_meta_data was \(user.metadataJSON) "
                + advice)
    }

    /// The user's auth.users row as Supabase Auth writes it for a user without a password:
    /// `encrypted_password` '' (`NewUser`, supabase/auth `internal/models/user.go`; never
    /// NULL: a sign-up trigger copying it into a NOT NULL column refused every persona).
    private func insertUser(id: String, _ user: PlanUser) -> SQL {
        if user.isAnonymous {
            return """
                insert into auth.users (id, aud, role, email, encrypted_password, is_anonymous,
                                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
                values (\(id)::uuid, 'authenticated', 'authenticated', null, '', true,
                        \(user.appMetadataJSON)::jsonb, \(user.metadataJSON)::jsonb, now(), now())
                returning id
                """
        }
        return """
            insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                                    raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
            values (\(id)::uuid, 'authenticated', 'authenticated', \(user.email), '', now(),
                    \(user.appMetadataJSON)::jsonb, \(user.metadataJSON)::jsonb, now(), now())
            returning id
            """
    }

    /// The columns of Supabase's auth.identities (2023 and later) that an identity needs.
    static let identityNeeds: Set<String> = ["provider_id", "user_id", "identity_data", "provider"]

    /// The columns of auth.identities, empty when the table does not exist.
    private func readIdentityColumns() throws -> Set<String> {
        Self.identityColumns(from: try connection.query(Self.identityColumnsSQL))
    }

    /// The query for auth.identities' columns (no row when the table does not exist).
    static let identityColumnsSQL: SQL = """
        select a.attname::text from pg_catalog.pg_attribute a
        where a.attrelid = to_regclass('auth.identities') and a.attnum > 0 and not a.attisdropped
        """

    /// `identityColumnsSQL`'s answer.
    static func identityColumns(from result: QueryResult) -> Set<String> {
        Set(result.rows.compactMap { $0[0] })
    }

    /// The identity row: for email the provider id is the user's id; for another
    /// provider, a made-up account id at that provider.
    private func insertIdentity(userID: String, _ user: PlanUser, columns: Set<String>) -> SQL {
        let providerID = user.provider == "email" ? userID : "pgwarden-\(UUID().uuidString.lowercased())"
        let data = "{\"sub\":\(JSONText.quote(providerID)),\"email\":\(JSONText.quote(user.email)),"
            + "\"email_verified\":true,\"phone_verified\":false}"
        let times = ["last_sign_in_at", "created_at", "updated_at"].filter(columns.contains)
        let names = (["provider_id", "user_id", "identity_data", "provider"] + times).map { (name: String) -> SQL in
            "\(identifier: name)"
        }
        var values: [SQL] = ["\(providerID)", "\(userID)::uuid", "\(data)::jsonb", "\(user.provider)"]
        values += times.map { _ in "now()" }
        return "insert into auth.identities (\(SQL.joined(names, separator: ", "))) values (\(SQL.joined(values, separator: ", ")))"
    }
}
