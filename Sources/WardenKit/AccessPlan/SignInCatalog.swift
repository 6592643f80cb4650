import Foundation
import WardenPostgres

/// What signing the personas in reads of the catalog: the roles' own settings, which
/// PostgREST applies per request (`ImpersonatedRoleSettings`), and which of Supabase
/// Auth's session tables exist (`PersonaSignIn.Tables`). Both are read in one round
/// trip, on the run's session or, as committed, on the second session
/// (`CatalogReadsInBackground`).
struct SignInCatalog {
    var roleSettings: ImpersonatedRoleSettings.ByRole
    var tables: PersonaSignIn.Tables

    /// The queries, in the order `init(_:)` reads their results.
    static func queries(for plan: AccessPlan) -> [SQL] {
        // Every persona's role, and the authenticator PostgREST connects as.
        let roles = Set(plan.personas.map(\.role) + ["authenticator"]).sorted()
        return [ImpersonatedRoleSettings.query(roles: roles), PersonaSignIn.Tables.query]
    }

    /// The catalog from the results of `queries(for:)`.
    init(_ results: ArraySlice<QueryResult>) {
        roleSettings = ImpersonatedRoleSettings.settings(from: results[results.startIndex])
        tables = PersonaSignIn.Tables(results[results.startIndex + 1])
    }

    /// The catalog, read on `connection` in one round trip.
    static func read(_ connection: Connection, plan: AccessPlan) throws -> SignInCatalog {
        SignInCatalog(try CatalogReads.run(connection, queries(for: plan))[...])
    }

    /// The catalog, the database's clock (whole seconds of `now()`, the run's
    /// transaction start) and the users' stored metadata
    /// (`PersonaTokenIssuer.storedMetadataSQL`), read on `connection` in one round trip.
    static func readWithClock(_ connection: Connection, plan: AccessPlan, storedMetadataOf userIDs: [String]) throws
        -> (catalog: SignInCatalog, now: Int, stored: [String: (app: String, user: String)])
    {
        let results = try CatalogReads.run(
            connection, [clockSQL, PersonaTokenIssuer.storedMetadataSQL(of: userIDs)] + queries(for: plan))
        return (SignInCatalog(results.dropFirst(2)), clock(from: results[0]),
                PersonaTokenIssuer.storedMetadata(from: results[1].rows.first?.first ?? nil))
    }

    /// The database's clock: `now()` in whole seconds.
    static let clockSQL: SQL = "select extract(epoch from now())::bigint::text"

    /// The seconds in the first column of `result`'s first row (this machine's clock when
    /// there are none).
    static func clock(from result: QueryResult) -> Int {
        clock(from: result.rows.first?.first ?? nil)
    }

    /// The seconds in `text` (this machine's clock when there are none).
    static func clock(from text: String?) -> Int {
        text.flatMap { Int($0) } ?? Int(Date().timeIntervalSince1970)
    }
}
