import Foundation

/// A declared access plan: who may see and change what, for every relation and
/// function of the exposed schemas. Read from YAML by `AccessPlanParser`.
public struct AccessPlan: Sendable {
    /// Where the plan came from (for messages).
    public internal(set) var source: String
    /// The schemas PostgREST exposes; every relation in them must be planned.
    public internal(set) var schemas: [String]
    public internal(set) var personas: [Persona]
    /// SQL run by the connecting (admin) user after the personas' users exist.
    public internal(set) var setup: [String]
    public internal(set) var relations: [RelationPlan]
    public internal(set) var functions: [FunctionPlan]
    public internal(set) var checks: [CustomCheck]
    /// The line of `schemas:` in the plan file (nil when the plan relies on the default).
    public internal(set) var schemasLine: Int? = nil
    /// The Supabase CLI project's `config.toml` beside the plan, when it has `[api]
    /// schemas`: they are the plan's `schemas` when the plan names none.
    public internal(set) var schemasConfig: String?
    /// The project's own schemas that config.toml's `[api] schemas` exposes and the
    /// plan's own `schemas:` leave out: PostgREST serves their relations, and the plan
    /// does not check them (empty when the plan names no schemas, or leaves none out).
    public internal(set) var configuredSchemasLeftOut: [String] = []
    /// The custom access token hook the auth server calls at sign-in (from the plan's
    /// `access_token_hook`, or `[auth.hook.custom_access_token]` of `supabase/config.toml`).
    public internal(set) var accessTokenHook: AccessTokenHook?
    /// The schemas PostgREST puts after a request's own in its `search_path` (the
    /// Supabase CLI project's `[api] extra_search_path`, else Supabase's default).
    public internal(set) var extraSearchPath: [String] = AccessPlan.supabaseExtraSearchPath
    /// The lint findings the plan file still marks as dangers in its header (`# DANGER
    /// (rule) subject: ...`, as `plan draft` writes them, not yet reviewed), as "rule
    /// subject": `lint` does not count them as intended.
    public internal(set) var dangerMarkedFindings: Set<String> = []
    /// Which plan this is, kept by its copies: a run uses reads of the catalog started
    /// before it (`startCatalogReads(on:limits:)`) only when they were started for it.
    private(set) var identity = UUID()

    /// Supabase's `extra_search_path`: `public`, `extensions` (the Supabase CLI's
    /// `config.toml` template, `[api]`; PostgREST's own default is `public`).
    public static let supabaseExtraSearchPath = ["public", "extensions"]

    public func persona(named name: String) -> Persona? { personas.first { $0.name == name } }
}

/// Someone a client request can act as.
public struct Persona: Sendable, Equatable {
    public internal(set) var name: String
    /// The database role PostgREST switches to: anon, authenticated, service_role.
    public internal(set) var role: String
    /// For signed-in personas: the account created in `auth.users` for the run.
    public internal(set) var user: PlanUser?
    public internal(set) var line: Int
    /// How the persona's token was issued: MFA level, sign-in method, expiry, extra claims.
    public internal(set) var token: TokenOptions = TokenOptions()
}

/// What a plan may vary about a persona's token (docs/access-plan-claims.md).
public struct TokenOptions: Sendable, Equatable {
    /// `aal1`, or `aal2` (signed in with a second factor: an `amr` entry `totp`).
    public internal(set) var aal: String = "aal1"
    /// The `amr` method of the sign-in (`password`, `otp`, `oauth`, ...); nil: from the provider.
    public internal(set) var signInMethod: String?
    /// The token's `exp` lies in the past.
    public internal(set) var expired: Bool = false
    /// Claims merged over the issued ones (after the hook), as JSON object text.
    public internal(set) var extraClaimsJSON: String?

    public init() {}
}

/// An account created for the run by inserting into `auth.users` (so the project's
/// own sign-up trigger runs, as on Supabase).
public struct PlanUser: Sendable, Equatable {
    /// The account's email; empty for an anonymous user (its row has none).
    public internal(set) var email: String
    /// `raw_user_meta_data` as JSON text (names and the like).
    public internal(set) var metadataJSON: String
    /// `raw_app_meta_data` as JSON text: `provider` and `providers`, merged with the
    /// plan's `app_metadata`; also the JWT's `app_metadata` claim.
    public internal(set) var appMetadataJSON: String
    /// Signed in with Supabase's anonymous sign-in: `is_anonymous` in the row and the JWT.
    public internal(set) var isAnonymous: Bool = false
    /// How the account signs in: `email`, `apple`, `google`, `kakao`, ... (`anonymous`
    /// for an anonymous user).
    public internal(set) var provider: String = "email"
}

/// What a persona may do with one relation.
public struct Access: Sendable, Equatable {
    public internal(set) var select: Scope
    public internal(set) var insert: Scope
    public internal(set) var update: Scope
    public internal(set) var delete: Scope

    public init(select: Scope, insert: Scope, update: Scope, delete: Scope) {
        self.select = select
        self.insert = insert
        self.update = update
        self.delete = delete
    }

    public static let nothing = Access(select: .nothing, insert: .nothing, update: .nothing, delete: .nothing)
    public static let everything = Access(select: .all, insert: .all, update: .all, delete: .all)

    public func scope(of operation: AccessOperation) -> Scope {
        switch operation {
        case .select: return select
        case .insert: return insert
        case .update: return update
        case .delete: return delete
        }
    }
}

/// On which rows an operation is allowed.
public enum Scope: String, Sendable, Equatable, CaseIterable {
    /// Every row.
    case all
    /// Only the rows the persona owns (the relation's owner rule).
    case own
    /// No row: zero rows seen or permission denied both count. Written `none` in a plan;
    /// named `nothing` in Swift so it never reads as `Optional.none`.
    case nothing = "none"
    /// No row, and specifically refused with permission denied (42501).
    case denied
    /// Some rows, but neither all nor exactly the own rows (select only): the rows the
    /// policies show everyone allowed (`published`), with or without the persona's own.
    /// Written `some` in a plan; named `someRows` in Swift so it never reads as
    /// `Optional.some`.
    case someRows = "some"
}

/// The four table operations a client can ask for.
public enum AccessOperation: String, Sendable, CaseIterable, Equatable {
    case select, insert, update, delete
}

/// The plan for one table or view.
public struct RelationPlan: Sendable {
    public internal(set) var schema: String
    public internal(set) var name: String
    /// SQL boolean over the relation's columns, true for rows the current request's
    /// user owns (`auth.uid()` is that user), e.g. `user_id = auth.uid()`.
    public internal(set) var owner: String?
    /// SQL boolean over the relation's columns, true for rows shared with every user
    /// (`team_id is null`: templates every team sees), when declared: such a row is no
    /// one's own and no other user's either, so a write probe of "another user's row"
    /// never aims at one. Only with `owner`.
    public internal(set) var shared: String? = nil
    /// The exact column list clients may see, when declared.
    public internal(set) var columns: [String]?
    /// Column -> SQL expression giving a value for an insert probe, evaluated for
    /// the owning persona (own row) and for another user (foreign row).
    public internal(set) var sample: [(column: String, expression: String)]
    /// SQL run by the admin, with the persona's claims set, before each insert probe
    /// (e.g. remove the row a unique constraint would collide with).
    public internal(set) var beforeInsert: String?
    /// The personas whose cell the plan file still marks `# DANGER` (as `plan draft`
    /// wrote it, not yet reviewed): `lint` does not count what it allows as intended.
    public internal(set) var dangerMarked: Set<String> = []
    /// Access per persona name.
    public internal(set) var access: [String: Access]
    public internal(set) var line: Int

    public var qualifiedName: String { "\(schema).\(name)" }
}

/// Whether each persona may execute a function.
public struct FunctionPlan: Sendable {
    /// Regprocedure text, e.g. `public.delete_current_user()`.
    public internal(set) var signature: String
    public internal(set) var execute: [String: Bool]
    public internal(set) var line: Int
    /// The personas whose cell the plan file still marks `# DANGER` (see `RelationPlan`).
    public internal(set) var dangerMarked: Set<String> = []
}

/// SQL run as a persona, with what must come of it.
public struct CustomCheck: Sendable {
    public internal(set) var name: String
    public internal(set) var persona: String
    public internal(set) var sql: String
    /// Admin SQL run first (inside the check's savepoint).
    public internal(set) var before: String?
    /// Admin SQL run afterwards; it must return true.
    public internal(set) var verify: String?
    public internal(set) var expectation: Expectation
    public internal(set) var line: Int
}

/// What a custom check expects of its SQL.
public struct Expectation: Sendable {
    /// Exact rows (text values; nil for NULL), in order.
    public internal(set) var rows: [[String?]]?
    /// Admin SQL whose rows the persona's rows must equal (in order).
    public internal(set) var rowsEqual: String?
    /// The first column of the first row.
    public internal(set) var value: String?
    /// The exact column names.
    public internal(set) var columns: [String]?
    /// The number of rows.
    public internal(set) var rowCount: Int?
    /// The SQLSTATE the SQL must fail with.
    public internal(set) var sqlState: String?

    public init() {}
}
