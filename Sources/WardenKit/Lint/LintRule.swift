/// The findings `pgwarden lint` reads from the catalog: the access-relevant lints of
/// Supabase's database advisor (splinter), under the same names, levels and
/// categories (docs/lint.md records the splinter commit they were checked against).
/// The queries are pgwarden's own (`LintCatalog`).
public enum LintRule: String, Sendable, CaseIterable, Codable {
    case authUsersExposed = "auth_users_exposed"
    case authRLSInitplan = "auth_rls_initplan"
    case multiplePermissivePolicies = "multiple_permissive_policies"
    case policyExistsRLSDisabled = "policy_exists_rls_disabled"
    case rlsEnabledNoPolicy = "rls_enabled_no_policy"
    case securityDefinerView = "security_definer_view"
    case functionSearchPathMutable = "function_search_path_mutable"
    case rlsDisabledInPublic = "rls_disabled_in_public"
    case extensionInPublic = "extension_in_public"
    case rlsReferencesUserMetadata = "rls_references_user_metadata"
    case materializedViewInAPI = "materialized_view_in_api"
    case foreignTableInAPI = "foreign_table_in_api"
    case rlsPolicyAlwaysTrue = "rls_policy_always_true"
    case anonSecurityDefinerFunctionExecutable = "anon_security_definer_function_executable"
    case authenticatedSecurityDefinerFunctionExecutable = "authenticated_security_definer_function_executable"
    /// pgwarden's own (not splinter's): a function the API roles may execute whose body
    /// runs TRUNCATE, which row-level security does not limit.
    case apiFunctionTruncates = "api_function_truncates"
    /// pgwarden's own: the custom access token hook reads `user_metadata`, which users
    /// set themselves, so the claims it derives from it are theirs to choose.
    case accessTokenHookReadsUserMetadata = "access_token_hook_reads_user_metadata"

    /// How serious splinter rates it.
    public enum Level: String, Sendable, Codable, Comparable {
        case error = "ERROR", warn = "WARN", info = "INFO"

        private var rank: Int { self == .error ? 2 : self == .warn ? 1 : 0 }
        public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    }

    /// Splinter's level for the rule.
    public var level: Level {
        switch self {
        case .authUsersExposed, .policyExistsRLSDisabled, .securityDefinerView, .rlsDisabledInPublic,
             .rlsReferencesUserMetadata:
            return .error
        case .rlsEnabledNoPolicy:
            return .info
        default:
            return .warn
        }
    }

    /// Performance findings (`auth_rls_initplan`, `multiple_permissive_policies`) never
    /// decide who sees what; every other rule is about security.
    public var isSecurity: Bool { self != .authRLSInitplan && self != .multiplePermissivePolicies }

    /// Splinter's lint number, for the remediation link (empty for pgwarden's own).
    public var number: String {
        switch self {
        case .authUsersExposed: return "0002"
        case .authRLSInitplan: return "0003"
        case .multiplePermissivePolicies: return "0006"
        case .policyExistsRLSDisabled: return "0007"
        case .rlsEnabledNoPolicy: return "0008"
        case .securityDefinerView: return "0010"
        case .functionSearchPathMutable: return "0011"
        case .rlsDisabledInPublic: return "0013"
        case .extensionInPublic: return "0014"
        case .rlsReferencesUserMetadata: return "0015"
        case .materializedViewInAPI: return "0016"
        case .foreignTableInAPI: return "0017"
        case .rlsPolicyAlwaysTrue: return "0024"
        case .anonSecurityDefinerFunctionExecutable: return "0028"
        case .authenticatedSecurityDefinerFunctionExecutable: return "0029"
        case .apiFunctionTruncates, .accessTokenHookReadsUserMetadata: return ""
        }
    }

    /// Supabase's page on the lint and its fix; for pgwarden's own rule, PostgreSQL's
    /// page saying what row-level security leaves out.
    public var remediation: String {
        number.isEmpty
            ? "https://www.postgresql.org/docs/current/ddl-rowsecurity.html"
            : "https://supabase.com/docs/guides/database/database-linter?lint=\(number)_\(rawValue)"
    }
}
