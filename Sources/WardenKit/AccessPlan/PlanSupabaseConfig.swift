import Foundation
import TOMLKit

/// Reads what an access plan takes from a Supabase CLI project's `supabase/config.toml`:
/// `[auth.hook.custom_access_token]` (`enabled = true`, `uri =
/// "pg-functions://postgres/<schema>/<function>"`), `[api] extra_search_path` and
/// `[api] schemas`, and `[auth] enable_signup`.
/// HTTP hooks (`http://`, `https://` URIs) call a server pgwarden cannot reach locally,
/// and are refused with a message saying so. (General config.toml support lives
/// elsewhere, `SupabaseConfig`; this reads the file beside a plan.)
enum PlanSupabaseConfig {
    /// The config file for a plan at `planPath`: `<plan's folder>/supabase/config.toml`,
    /// or `<plan's folder>/config.toml` when the plan lies in the `supabase` folder; named
    /// as the plan is (`supabase/config.toml` beside `access-plan.yml`). Without one there,
    /// the project's own, `<projectRoot>/supabase/config.toml`: a plan kept or drafted
    /// outside `supabase/` (`plan draft --output /tmp/plan.yml` from the project's root)
    /// signed its personas in without the project's access token hook, and said nothing.
    static func file(near planPath: String, projectRoot: String? = nil) -> String? {
        let folder = (planPath as NSString).deletingLastPathComponent
        let inSupabase = URL(fileURLWithPath: planPath).deletingLastPathComponent().lastPathComponent == "supabase"
        let candidates = ["supabase/config.toml"] + (inSupabase ? ["config.toml"] : [])
        let project = projectRoot.map { [($0 as NSString).appendingPathComponent("supabase/config.toml")] } ?? []
        return (candidates.map { (folder as NSString).appendingPathComponent($0) } + project)
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// What the config file beside a plan says; each nil when the file (or the key) is absent.
    struct Values {
        /// The file they were read from.
        var file: String?
        /// The enabled custom access token hook.
        var hook: AccessTokenHook?
        /// `[api] extra_search_path`, as written.
        var extraSearchPath: [String]?
        /// `[api] schemas`, as written.
        var schemas: [String]?
        /// `[auth] enable_signup`, as written.
        var signUpsEnabled: Bool?
    }

    /// The config file beside `planPath` (else the project's at `projectRoot`), read once.
    static func read(near planPath: String, projectRoot: String? = nil) throws -> Values {
        guard let file = file(near: planPath, projectRoot: projectRoot) else { return Values() }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw AccessPlanError(file: file, line: nil, message: "cannot read the file (missing, unreadable or not UTF-8)")
        }
        return try read(toml: text, file: file)
    }

    /// What config.toml's text says; `file` names it in errors.
    static func read(toml text: String, file: String) throws -> Values {
        let table = try parse(toml: text, file: file)
        return Values(
            file: file,
            hook: try customAccessTokenHook(in: table, file: file),
            extraSearchPath: try schemaNames(in: table, key: "extra_search_path", file: file),
            schemas: try schemaNames(in: table, key: "schemas", file: file),
            signUpsEnabled: try signUpsEnabled(in: table, file: file))
    }

    /// `[auth] enable_signup` (nil when not given): false, and no client can sign up;
    /// only the admin API (an invitation, `createUser`) makes users.
    private static func signUpsEnabled(in table: TOMLTable, file: String) throws -> Bool? {
        guard let value = table["auth"]?.table?["enable_signup"] else { return nil }
        guard let enabled = value.bool else {
            throw AccessPlanError(file: file, line: nil, message: "[auth] enable_signup must be true or false")
        }
        return enabled
    }

    private static func parse(toml text: String, file: String) throws -> TOMLTable {
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw AccessPlanError(file: file, line: Int(error.source.begin.line), message: "invalid TOML: \(error.description)")
        }
    }

    /// `[api] <key>` as an array of schema names, as written (nil when not given):
    /// `schemas`, those PostgREST exposes; `extra_search_path`, those it puts after a
    /// request's own in its `search_path`.
    private static func schemaNames(in table: TOMLTable, key: String, file: String) throws -> [String]? {
        guard let value = table["api"]?.table?[key] else { return nil }
        let names = value.array?.compactMap { $0.string }.filter { !$0.isEmpty }
        guard let names, names.count == value.array?.count else {
            throw AccessPlanError(file: file, line: nil, message: "[api] \(key) must be an array of schema names")
        }
        return names
    }

    private static func customAccessTokenHook(in table: TOMLTable, file: String) throws -> AccessTokenHook? {
        guard let hook = table["auth"]?.table?["hook"]?.table?["custom_access_token"]?.table else { return nil }
        guard hook["enabled"]?.bool == true else { return nil }
        guard let uri = hook["uri"]?.string else {
            throw AccessPlanError(file: file, line: nil, message: "[auth.hook.custom_access_token] is enabled but has no uri")
        }
        return try parse(uri: uri, file: file)
    }

    /// An HTTP hook's URI as it may be shown: its scheme and host alone. Its user,
    /// password, path and query may hold a secret (the whole URI was printed).
    static func shown(httpURI uri: String) -> String {
        guard let components = URLComponents(string: uri), let scheme = components.scheme, let host = components.host
        else { return "(an HTTP URI)" }
        return "\(scheme)://\(host)"
    }

    /// `pg-functions://postgres/<schema>/<function>`, as Supabase Auth splits it
    /// (`internal/conf/configuration.go`, PopulateExtensibilityPoint).
    static func parse(uri: String, file: String) throws -> AccessTokenHook {
        let prefix = "pg-functions://"
        if uri.hasPrefix("http://") || uri.hasPrefix("https://") {
            throw AccessPlanError(
                file: file, line: nil,
                message: "the custom access token hook \(shown(httpURI: uri)) is an HTTP hook, out of reach locally: pgwarden can call only pg-functions:// hooks")
        }
        let parts = uri.hasPrefix(prefix) ? uri.dropFirst(prefix.count).split(separator: "/").map(String.init) : []
        guard parts.count == 3 else {
            throw AccessPlanError(
                file: file, line: nil,
                message: "the custom access token hook uri '\(uri)' is not pg-functions://<database>/<schema>/<function>")
        }
        return AccessTokenHook(schema: parts[1], function: parts[2], origin: "\(file) [auth.hook.custom_access_token]")
    }
}
