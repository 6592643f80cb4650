import Foundation
import WardenPostgres

/// Issues every persona's token and request, after the plan's setup, as a Supabase
/// stack would: signed-in personas sign in (`PersonaSignIn`), get the auth server's
/// claims, passed through the project's custom access token hook when there is one;
/// anon and service_role get their API key's claims. The plan's `expired` and
/// `claims` options apply last; the token is signed (HS256, the local stack's secret)
/// and sent as supabase-js sends it (`request.headers`).
struct PersonaTokenIssuer {
    let connection: Connection
    let plan: AccessPlan
    let userIDs: [String: String]
    let adminRoleSetting: String
    /// User id -> its `auth.users` row's `raw_app_meta_data` and `raw_user_meta_data`
    /// (JSON text) after the plan's setup (`storedMetadataSQL`): Supabase Auth makes a
    /// token's `app_metadata` and `user_metadata` from the user's row at sign-in, so what
    /// the project's sign-up trigger or the setup wrote there is in it. (A tenant id a
    /// sign-up trigger copied into `raw_app_meta_data` was missing from every token, and
    /// every tenant's table unprobed: an LMS, round thirty-four.) A user not in it gets
    /// the plan's values.
    var storedMetadata: [String: (app: String, user: String)] = [:]

    struct Issued {
        /// Persona name -> its request (personas whose sign-in failed are absent).
        var requests: [String: PersonaRequest] = [:]
        /// A failed result for each persona whose sign-in the hook refused.
        var failures: [ProbeResult] = []
    }

    /// What `issue(now:catalog:rowsUnsent:)` made: the tokens, and the signed-in
    /// personas' session rows when they are still to be written.
    struct Unsent {
        fileprivate(set) var issued = Issued()
        /// The rows of each signed-in persona, a pipelined unit each (empty: written).
        fileprivate(set) var rows: [[SQL]]
        /// Whose rows each unit is.
        fileprivate var personas: [Persona]
        fileprivate let source: String

        /// Writes the rows now, all in one round trip (`check` reads them); none is left
        /// unsent.
        fileprivate mutating func write(on connection: Connection) throws {
            guard !rows.isEmpty else { return }
            var batch = PipelinedBatch()
            for unit in rows { batch.add(unit) }
            try check(try connection.run(batch))
            (rows, personas) = ([], [])
        }

        /// Reads the rows' outcomes, a unit each in `rows`' order: the first error
        /// (a unit's error skips the rest of its rows) is thrown naming its persona.
        func check(_ outcomes: [[PipelinedBatch.Outcome]]) throws {
            for (persona, unit) in zip(personas, outcomes) {
                do {
                    for outcome in unit { _ = try outcome.get() }
                } catch let error as PGError {
                    throw AccessPlanError(
                        file: source, line: persona.line,
                        message: "signing in the user of persona '\(persona.name)' failed: \(error.message)")
                }
            }
        }
    }

    /// Reads the database's clock, the sign-in's catalog and the users' stored metadata
    /// (one round trip), then issues.
    func issue(rowsUnsent: Bool = false) throws -> Unsent {
        let (catalog, now, stored) = try SignInCatalog.readWithClock(
            connection, plan: plan, storedMetadataOf: Array(userIDs.values))
        var issuer = self
        issuer.storedMetadata = stored
        return try issuer.issue(now: now, catalog: catalog, rowsUnsent: rowsUnsent)
    }

    /// The users' `raw_app_meta_data` and `raw_user_meta_data` by id, as one JSON text
    /// (`storedMetadata(from:)` reads it).
    static func storedMetadataSQL(of userIDs: [String]) -> SQL {
        """
        select coalesce(json_object_agg(u.id::text, json_build_array(
                 coalesce(u.raw_app_meta_data, '{}'::jsonb), coalesce(u.raw_user_meta_data, '{}'::jsonb))), '{}')::text
        from auth.users u where u.id = any(\(array: userIDs.sorted())::uuid[])
        """
    }

    /// `storedMetadataSQL`'s answer read back (empty when there is none).
    static func storedMetadata(from text: String?) -> [String: (app: String, user: String)] {
        guard let text, let object = JSONText.decode(text) as? [String: Any] else { return [:] }
        return object.compactMapValues { value in
            guard let pair = value as? [Any], pair.count == 2 else { return nil }
            return (JSONText.encode(pair[0]), JSONText.encode(pair[1]))
        }
    }

    /// Issues with `now`, the database's clock (seconds), and the sign-in's catalog.
    ///
    /// `rowsUnsent`: when no custom access token hook is to read the signed-in
    /// personas' session rows, every token is made from what the rows will hold
    /// before they are written, and they are returned unsent, for the caller to send
    /// at the head of its next batch (issue 18: one round trip fewer) and `check`.
    /// With a hook, or when false, they are written first (one round trip).
    func issue(now: Int, catalog: SignInCatalog, rowsUnsent: Bool = false) throws -> Unsent {
        let prepared = prepareSignIns(now: now, tables: catalog.tables)
        let written = prepared.filter { !$0.sign.rows.isEmpty }
        // A pipelined unit each, so one's error stops only the rest of its own rows.
        var unsent = Unsent(rows: written.map(\.sign.rows), personas: written.map(\.persona), source: plan.source)
        if !rowsUnsent || plan.accessTokenHook != nil { try unsent.write(on: connection) }
        unsent.issued = try issued(
            now: now, catalog: catalog,
            signIns: Dictionary(uniqueKeysWithValues: prepared.map { ($0.persona.name, $0.sign.signIn) }))
        return unsent
    }

    /// Every persona's request, its token made from its sign-in (and the hook, when
    /// there is one: a call each, after the rows are written).
    private func issued(now: Int, catalog: SignInCatalog, signIns: [String: AuthClaims.SignIn]) throws -> Issued {
        let settings = catalog.roleSettings
        let anonKey = JWTSigner.sign(claimsJSON: JSONText.encode(AuthClaims.apiKey(role: "anon", issuedAt: now)))
        var issued = Issued()
        for persona in plan.personas {
            var claims: [String: Any]
            if let user = persona.user, let userID = userIDs[persona.name], let signIn = signIns[persona.name] {
                do {
                    claims = try signedInClaims(persona, user: user, userID: userID, signIn: signIn)
                } catch AccessTokenHookCall.Failure.rejected(let message) {
                    issued.failures.append(failure(persona, message))
                    continue
                }
            } else {
                claims = AuthClaims.apiKey(role: persona.role, issuedAt: now)
                if persona.token.expired { claims = AuthClaims.shiftedForExpiry(claims, by: AuthClaims.apiKeyLifetime + 60) }
            }
            claims = AuthClaims.merged(claims, extraJSON: persona.token.extraClaimsJSON)
            let claimsJSON = JSONText.encode(claims)
            let token = JWTSigner.sign(claimsJSON: claimsJSON)
            let apiKey = persona.role == "service_role" ? token : (persona.user == nil ? token : anonKey)
            issued.requests[persona.name] = PersonaRequest(
                role: persona.role, claimsJSON: claimsJSON,
                headersJSON: Self.headers(token: token, apiKey: apiKey, schema: plan.schemas.first ?? "public"),
                roleSettings: ImpersonatedRoleSettings.merged(connection: settings["authenticator"] ?? [], role: settings[persona.role] ?? []),
                extraSearchPath: plan.extraSearchPath)
        }
        return issued
    }

    /// Each signed-in persona's sign-in (`PersonaSignIn`): its rows, and what its token
    /// is made of.
    private func prepareSignIns(now: Int, tables: PersonaSignIn.Tables) -> [(persona: Persona, sign: PersonaSignIn.Prepared)] {
        plan.personas.compactMap { persona in
            guard let user = persona.user, let userID = userIDs[persona.name] else { return nil }
            return (persona, PersonaSignIn.prepare(persona, user: user, userID: userID, now: now, tables: tables))
        }
    }

    private func signedInClaims(_ persona: Persona, user: PlanUser, userID: String, signIn: AuthClaims.SignIn) throws
        -> [String: Any]
    {
        var user = user
        if let stored = storedMetadata[userID] { (user.appMetadataJSON, user.metadataJSON) = stored }
        let claims = AuthClaims.signedIn(persona, user: user, signIn)
        guard let hook = plan.accessTokenHook else { return claims }
        let call = AccessTokenHookCall(connection: connection, hook: hook, adminRoleSetting: adminRoleSetting)
        do {
            return try call.call(userID: userID, claims: claims, authenticationMethod: signIn.methods.first?.method ?? "password")
        } catch AccessTokenHookCall.Failure.cannotBecomeAuthAdmin(let message) {
            throw AccessPlanError(
                file: hook.origin, line: nil,
                message: "the custom access token hook \(hook.qualifiedName) runs as \(AccessTokenHookCall.authRole), which the connecting user cannot become (\(message)); connect as a superuser or a member of \(AccessTokenHookCall.authRole)")
        }
    }

    private func failure(_ persona: Persona, _ message: String) -> ProbeResult {
        ProbeResult(
            subjectKind: .check, subject: "sign-in", persona: persona.name, operation: nil,
            probe: "custom access token hook \(plan.accessTokenHook?.qualifiedName ?? "")",
            expected: "a token (the hook returns claims)", observed: "sign-in fails: \(message)", passed: false)
    }

    /// The headers supabase-js v2 sends to PostgREST (lower-cased, as PostgREST stores
    /// them): `apikey`, `authorization: Bearer <token>`, `x-client-info`, and the
    /// schema profile header.
    static func headers(token: String, apiKey: String, schema: String) -> String {
        JSONText.encode([
            "accept": "application/json",
            "accept-profile": schema,
            "apikey": apiKey,
            "authorization": "Bearer \(token)",
            "x-client-info": "supabase-js-node/2",
        ])
    }
}
