import Foundation
import Testing
@testable import WardenKit

/// Persona token options (aal, sign_in, expired, claims), the claims Supabase Auth
/// v2.196.0 issues (internal/tokens/service.go, GenerateAccessToken), and how a custom
/// access token hook's response is read (internal/hooks/v0hooks, hookserrors).
@Suite struct PersonaTokenTests {
    private func parse(_ personas: String) throws -> AccessPlan {
        try AccessPlanParser(file: "plan.yml").parse("personas:\n" + personas)
    }

    private func mistake(_ text: String) -> AccessPlanError? {
        do {
            _ = try AccessPlanParser(file: "plan.yml").parse(text)
            return nil
        } catch {
            return error as? AccessPlanError
        }
    }

    private func claims(_ persona: Persona, methods: [(String, Int)] = [("password", 99)]) throws -> [String: Any] {
        let signIn = AuthClaims.SignIn(userID: "u", sessionID: "s", issuedAt: 100, methods: methods.map { (method: $0.0, at: $0.1) })
        return AuthClaims.signedIn(persona, user: try #require(persona.user), signIn)
    }

    @Test func signedInClaimsAreTheAuthServersFourteen() throws {
        let plan = try parse("  ava: { role: authenticated, email: ava@example.com }\n")
        let claims = try claims(plan.personas[0])
        #expect(Set(claims.keys) == ["iss", "sub", "aud", "exp", "iat", "email", "phone", "app_metadata", "user_metadata",
                                     "role", "aal", "amr", "session_id", "is_anonymous"])
        #expect(claims["exp"] as? Int == 100 + 3600)
        #expect(claims["iat"] as? Int == 100)
        #expect(claims["aal"] as? String == "aal1")
        #expect(claims["aud"] as? String == "authenticated")
        #expect(claims["phone"] as? String == "")
        #expect(claims["iss"] as? String == "http://127.0.0.1:54321/auth/v1")
        let amr = try #require(claims["amr"] as? [[String: Any]])
        #expect(amr.count == 1 && amr[0]["method"] as? String == "password" && amr[0]["timestamp"] as? Int == 99)
    }

    @Test func optionsAreRead() throws {
        let plan = try parse("""
              mia: { role: authenticated, email: mia@example.com, aal: aal2, sign_in: otp, expired: true, claims: { user_role: admin } }
              anon: { role: anon, claims: { ref: abcdefghijklmnopqrst } }

            """)
        let token = plan.personas[0].token
        #expect(token.aal == "aal2")
        #expect(token.signInMethod == "otp")
        #expect(token.expired)
        #expect(token.extraClaimsJSON == #"{"user_role":"admin"}"#)
        #expect(plan.personas[1].token.extraClaimsJSON == #"{"ref":"abcdefghijklmnopqrst"}"#)
        #expect(AuthClaims.signInMethod(plan.personas[0], user: try #require(plan.personas[0].user)) == "otp")
    }

    @Test func badOptionsAreErrorsWithTheirLine() {
        let aal = mistake("personas:\n  ava: { role: authenticated, email: a@example.com }\n  mia:\n    role: authenticated\n    email: m@example.com\n    aal: aal3\n")
        #expect(aal?.line == 6 && aal?.message.contains("aal1 or aal2") == true)
        let anonAAL = mistake("personas:\n  anon:\n    role: anon\n    aal: aal2\n")
        #expect(anonAAL?.line == 4 && anonAAL?.message.contains("no account") == true)
        let method = mistake("personas:\n  ava:\n    role: authenticated\n    email: a@example.com\n    sign_in: fax\n")
        #expect(method?.line == 5 && method?.message.contains("sign_in") == true)
        let expired = mistake("personas:\n  ava:\n    role: authenticated\n    email: a@example.com\n    expired: yes please\n")
        #expect(expired?.line == 5)
        let extra = mistake("personas:\n  ava:\n    role: authenticated\n    email: a@example.com\n    claims: [a]\n")
        #expect(extra?.line == 5 && extra?.message.contains("mapping") == true)
        let unknown = mistake("personas:\n  ava:\n    role: authenticated\n    email: a@example.com\n    mfa: true\n")
        #expect(unknown?.line == 5)
        let hook = mistake("access_token_hook: nodot\npersonas:\n  anon: { role: anon }\n")
        #expect(hook?.line == 1 && hook?.message.contains("schema.function") == true)
    }

    @Test func apiKeyClaimsAndExpiryAndMerging() {
        let key = AuthClaims.apiKey(role: "anon", issuedAt: 1000)
        #expect(key["iss"] as? String == "supabase" && key["role"] as? String == "anon")
        #expect(key["exp"] as? Int == 1000 + AuthClaims.apiKeyLifetime)
        let expired = AuthClaims.shiftedForExpiry(["iat": 5000, "exp": 8600], by: 3660)
        #expect(expired["exp"] as? Int == 4940 && expired["iat"] as? Int == 1340)
        let merged = AuthClaims.merged(["role": "authenticated", "aal": "aal1"], extraJSON: #"{"aal":"aal2","user_role":"admin"}"#)
        #expect(merged["aal"] as? String == "aal2" && merged["user_role"] as? String == "admin")
    }

    @Test func hookResponsesAreReadAsTheAuthServerReadsThem() throws {
        let full = #"{"claims":{"aud":"authenticated","exp":1,"iat":0,"sub":"u","email":"","phone":"","role":"authenticated","aal":"aal1","session_id":"s","is_anonymous":false,"user_role":"admin"}}"#
        #expect(try AccessTokenHookCall.claims(in: full)["user_role"] as? String == "admin")
        #expect(rejection(#"{"error":{"http_code":403,"message":"no admins on Sundays"}}"#)?.contains("no admins on Sundays") == true)
        #expect(rejection(#"{"nothing":1}"#) == "output claims field is missing")
        #expect(rejection(#"{"claims":"x"}"#)?.contains("not a JSON object") == true)
        #expect(rejection(#"{"claims":{"role":"authenticated"}}"#)?.contains("aud is required") == true)
        #expect(rejection(nil) != nil)
    }

    private func rejection(_ response: String?) -> String? {
        do {
            _ = try AccessTokenHookCall.claims(in: response)
            return nil
        } catch AccessTokenHookCall.Failure.rejected(let message) {
            return message
        } catch {
            return "\(error)"
        }
    }

    /// `[auth] enable_signup`: false turns client sign-ups off; a value that is no
    /// boolean is refused naming the file and the key, as the Supabase CLI refuses it.
    @Test func configTomlSignUpSettingIsRead() throws {
        #expect(try PlanSupabaseConfig.read(toml: "[auth]\nenable_signup = false", file: "c").signUpsEnabled == false)
        #expect(try PlanSupabaseConfig.read(toml: "[auth]\nenable_signup = true", file: "c").signUpsEnabled == true)
        #expect(try PlanSupabaseConfig.read(toml: "[auth]\nsite_url = \"x\"", file: "c").signUpsEnabled == nil)
        let error = try #require(throws: AccessPlanError.self) {
            try PlanSupabaseConfig.read(toml: "[auth]\nenable_signup = \"no\"", file: "supabase/config.toml")
        }
        #expect("\(error)".contains("supabase/config.toml") && "\(error)".contains("[auth] enable_signup must be true or false"))
    }

    @Test func configTomlHookIsReadAndHTTPHooksAreRefused() throws {
        let toml = """
            [auth.hook.custom_access_token]
            enabled = true
            uri = "pg-functions://postgres/public/custom_access_token_hook"
            """
        let hook = try #require(try PlanSupabaseConfig.read(toml: toml, file: "config.toml").hook)
        #expect(hook.schema == "public" && hook.function == "custom_access_token_hook")
        #expect(try PlanSupabaseConfig.read(toml: toml.replacingOccurrences(of: "true", with: "false"), file: "c").hook == nil)
        #expect(throws: AccessPlanError.self) {
            try PlanSupabaseConfig.read(toml: toml.replacingOccurrences(of: "pg-functions://postgres", with: "https://example.com"), file: "c")
        }
        #expect(throws: AccessPlanError.self) { try PlanSupabaseConfig.read(toml: "[auth\nx=", file: "c") }
        // Its user, password, path and query are not printed: any may hold a secret.
        let secret = toml.replacingOccurrences(
            of: "pg-functions://postgres/public/custom_access_token_hook", with: "https://hook:s3cret@hooks.example.com/t?key=k3y")
        let error = try #require(throws: AccessPlanError.self) { try PlanSupabaseConfig.read(toml: secret, file: "c") }
        #expect(error.message.contains("the custom access token hook https://hooks.example.com is an HTTP hook"), "\(error.message)")
        #expect(!error.message.contains("s3cret") && !error.message.contains("k3y"), "\(error.message)")
    }

    /// `[api] extra_search_path` of config.toml: as written, nil when absent, and a
    /// value that is not an array of names is an error naming the key.
    @Test func extraSearchPathIsReadFromConfigToml() throws {
        let toml = "[api]\nextra_search_path = [\"public\", \"extensions\", \"stripe\"]\n"
        #expect(try PlanSupabaseConfig.read(toml: toml, file: "config.toml").extraSearchPath == ["public", "extensions", "stripe"])
        #expect(try PlanSupabaseConfig.read(toml: "[api]\nport = 54321\n", file: "c").extraSearchPath == nil)
        for wrong in ["[api]\nextra_search_path = \"public\"\n", "[api]\nextra_search_path = [\"public\", 1]\n",
                      "[api]\nextra_search_path = [\"\"]\n"] {
            #expect {
                try PlanSupabaseConfig.read(toml: wrong, file: "config.toml")
            } throws: { "\($0)".contains("[api] extra_search_path must be an array of schema names") }
        }
    }

    /// `[api] schemas` of config.toml: as written, nil when absent, and the same checks.
    @Test func exposedSchemasAreReadFromConfigToml() throws {
        let toml = "[api]\nschemas = [\"api\", \"public\", \"graphql_public\"]\n"
        #expect(try PlanSupabaseConfig.read(toml: toml, file: "config.toml").schemas == ["api", "public", "graphql_public"])
        #expect(try PlanSupabaseConfig.read(toml: "[api]\nport = 54321\n", file: "c").schemas == nil)
        #expect {
            try PlanSupabaseConfig.read(toml: "[api]\nschemas = [1]\n", file: "config.toml")
        } throws: { "\($0)".contains("[api] schemas must be an array of schema names") }
    }

    /// The project's own schemas among `[api] schemas`, in order; `public` when none.
    @Test func theProjectsOwnConfiguredSchemasAreKeptInOrder() {
        #expect(ProjectAPISettings.projectSchemas(["api", "public", "graphql_public", "storage", "api"]) == ["api", "public"])
        #expect(ProjectAPISettings.projectSchemas(["graphql_public"]) == ["public"])
        #expect(ProjectAPISettings.projectSchemas([]) == ["public"])
        #expect(ProjectAPISettings.projectSchemas(["public", "vault", "private_api"]) == ["public", "private_api"])
    }

    @Test func tokensAreHS256WithTheLocalSecret() {
        let token = JWTSigner.sign(claimsJSON: #"{"role":"anon"}"#)
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        #expect(parts[0] == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9")
        #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))
    }

    /// PostgREST v13.0.7 (src/PostgREST/Query.hs): one `select set_config(...)` with the
    /// search_path (the request's schema, then the extra ones) and the role's settings
    /// before the role, then the claims, method, path, headers, cookies.
    @Test func aProbeSetsEverythingInOneStatementInPostgRESTsOrder() {
        let request = PersonaRequest(
            role: "anon", claimsJSON: #"{"role":"anon"}"#, headersJSON: #"{"apikey":"k"}"#,
            roleSettings: [("statement_timeout", "3s")]).routed("POST", "/todos", schema: "public")
        let sql = PersonaRequest.select(request.roleSwitch + request.requestSettings)
        #expect(sql.text.hasPrefix("select set_config('search_path', $1, true), set_config($2, $3, true), set_config('role', $4, true), set_config('request.jwt.claims', $5, true)"))
        #expect(sql.bindings == [#""public", "public", "extensions""#, "statement_timeout", "3s", "anon", #"{"role":"anon"}"#, "POST", "/todos", #"{"apikey":"k"}"#, "{}"])
        #expect(!sql.text.contains(";"))
        // A schema's name is quoted as an identifier; a request on no route keeps the session's path.
        var quoted = request.routed("GET", "/t", schema: #"My "odd" schema"#)
        quoted.extraSearchPath = ["extensions"]
        #expect(quoted.searchPath == #""My ""odd"" schema", "extensions""#)
        #expect(!PersonaRequest.select(PersonaRequest.nobody.roleSwitch).text.contains("search_path"))
        #expect(ImpersonatedRoleSettings.merged(
            connection: [("statement_timeout", "8s"), ("lock_timeout", "8s")], role: [("statement_timeout", "3s")]).map(\.value) == ["8s", "3s"])
    }
}
