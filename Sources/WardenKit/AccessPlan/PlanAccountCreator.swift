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
    func createAccounts() throws -> [String: String] {
        var ids: [String: String] = [:]
        var identityColumns: Set<String>?
        for persona in plan.personas {
            guard let user = persona.user else { continue }
            let id = UUID().uuidString.lowercased()
            do {
                try signUp(id: id, user, persona: persona)
                if !user.isAnonymous {
                    let columns = try identityColumns ?? readIdentityColumns()
                    identityColumns = columns
                    if Self.identityNeeds.isSubset(of: columns) { try insertIdentity(userID: id, user, columns: columns) }
                }
            } catch let error as PGError {
                let who = user.isAnonymous ? "an anonymous user" : user.email
                throw AccessPlanError(
                    file: plan.source, line: persona.line,
                    message: "creating the user of persona '\(persona.name)' (\(who)) failed: \(error.message)")
            }
            ids[persona.name] = id
        }
        return ids
    }

    /// Inserts the user in a savepoint, so that when the project's sign-up trigger
    /// refuses it, the error can say which trigger and what it raised.
    private func signUp(id: String, _ user: PlanUser, persona: Persona) throws {
        do {
            try connection.savepoint { try insertUser(id: id, user) }
        } catch let error as PGError {
            guard let trigger = try SignUpTriggers.culprit(of: error, on: connection) else { throw error }
            let who = user.isAnonymous ? "an anonymous user" : user.email
            throw AccessPlanError(
                file: plan.source, line: persona.line > 0 ? persona.line : nil,
                message: "creating the user of persona '\(persona.name)' (\(who)) failed in \(trigger) on auth.users: "
                    + "\(error.message)\(error.detail.map { " (\($0))" } ?? ""); its raw_user_meta_data was \(user.metadataJSON) "
                    + "(a plan gives it with the persona's metadata: {...}; plan draft with --user-metadata)")
        }
    }

    private func insertUser(id: String, _ user: PlanUser) throws {
        if user.isAnonymous {
            try connection.query(
                """
                insert into auth.users (id, aud, role, email, is_anonymous,
                                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
                values (\(id)::uuid, 'authenticated', 'authenticated', null, true, \(user.appMetadataJSON)::jsonb, \(user.metadataJSON)::jsonb, now(), now())
                """)
        } else {
            try connection.query(
                """
                insert into auth.users (id, aud, role, email, email_confirmed_at,
                                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
                values (\(id)::uuid, 'authenticated', 'authenticated', \(user.email), now(), \(user.appMetadataJSON)::jsonb, \(user.metadataJSON)::jsonb, now(), now())
                """)
        }
    }

    /// The columns of Supabase's auth.identities (2023 and later) that an identity needs.
    static let identityNeeds: Set<String> = ["provider_id", "user_id", "identity_data", "provider"]

    /// The columns of auth.identities, empty when the table does not exist.
    private func readIdentityColumns() throws -> Set<String> {
        let result = try connection.query(
            """
            select a.attname::text from pg_catalog.pg_attribute a
            where a.attrelid = to_regclass('auth.identities') and a.attnum > 0 and not a.attisdropped
            """)
        return Set(result.rows.compactMap { $0[0] })
    }

    /// The identity row: for email the provider id is the user's id; for another
    /// provider, a made-up account id at that provider.
    private func insertIdentity(userID: String, _ user: PlanUser, columns: Set<String>) throws {
        let providerID = user.provider == "email" ? userID : "pgwarden-\(UUID().uuidString.lowercased())"
        let data = "{\"sub\":\(JSONText.quote(providerID)),\"email\":\(JSONText.quote(user.email)),"
            + "\"email_verified\":true,\"phone_verified\":false}"
        let times = ["last_sign_in_at", "created_at", "updated_at"].filter(columns.contains)
        let names = (["provider_id", "user_id", "identity_data", "provider"] + times).map { (name: String) -> SQL in
            "\(identifier: name)"
        }
        let values: [SQL] = ["\(providerID)", "\(userID)::uuid", "\(data)::jsonb", "\(user.provider)"] + times.map { _ in "now()" }
        try connection.query(
            "insert into auth.identities (\(SQL.joined(names, separator: ", "))) values (\(SQL.joined(values, separator: ", ")))")
    }
}
