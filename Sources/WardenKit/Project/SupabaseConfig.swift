import Foundation
import TOMLKit

/// What pgwarden reads from a Supabase CLI project's `supabase/config.toml`: the seed
/// settings (`[db.seed]`), the custom access token hook
/// (`[auth.hook.custom_access_token]`), `[api] auto_expose_new_tables` and the storage
/// buckets (`[storage.buckets.<name>]`). Keys pgwarden does not use are ignored, as the
/// Supabase CLI ignores keys it does not know. Parsed with TOMLKit.
public struct SupabaseConfig: Sendable, Equatable {
    /// `[db.seed]`: which seed files `supabase db reset` applies.
    public struct Seed: Sendable, Equatable {
        /// `enabled` (default true).
        public var enabled: Bool
        /// `sql_paths`, as written: paths or globs relative to the `supabase/` folder
        /// (default `["./seed.sql"]`).
        public var sqlPaths: [String]

        public init(enabled: Bool = true, sqlPaths: [String] = ["./seed.sql"]) {
            self.enabled = enabled
            self.sqlPaths = sqlPaths
        }
    }

    /// `[auth.hook.custom_access_token]`: a Postgres function that edits the claims of
    /// every access token the project's auth server issues.
    public struct AccessTokenHook: Sendable, Equatable {
        public var enabled: Bool
        /// e.g. `pg-functions://postgres/public/custom_access_token_hook`.
        public var uri: String?

        public init(enabled: Bool, uri: String?) {
            self.enabled = enabled
            self.uri = uri
        }
    }

    /// `[storage.buckets.<name>]`: a bucket `supabase start` and `supabase db reset`
    /// create (or update) through the Storage API after the seeds.
    public struct StorageBucket: Sendable, Equatable {
        /// The table's key: the bucket's name and id.
        public var name: String
        /// `public` (default false).
        public var isPublic: Bool
        /// `file_size_limit` in bytes (`"50MiB"`, read base 2 as the Supabase CLI reads it); nil: no limit.
        public var fileSizeLimit: Int64?
        /// `allowed_mime_types`; nil: any.
        public var allowedMimeTypes: [String]?
        /// `objects_path`: files the Supabase CLI uploads into it (the twin has no storage server to hold them).
        public var objectsPath: String?

        public init(name: String, isPublic: Bool = false, fileSizeLimit: Int64? = nil,
                    allowedMimeTypes: [String]? = nil, objectsPath: String? = nil) {
            self.name = name
            self.isPublic = isPublic
            self.fileSizeLimit = fileSizeLimit
            self.allowedMimeTypes = allowedMimeTypes
            self.objectsPath = objectsPath
        }
    }

    public var seed: Seed
    /// The buckets of `[storage.buckets]`, by name.
    public var storageBuckets: [StorageBucket] = []
    /// nil when config.toml has no `[auth.hook.custom_access_token]` table.
    public var customAccessTokenHook: AccessTokenHook?
    /// `[db] major_version`: the PostgreSQL major version the project runs on ("has to
    /// be the same as your remote database's", the Supabase CLI's template says); nil
    /// when not given.
    public var majorVersion: Int?
    /// `[api] auto_expose_new_tables`: false revokes the default grants that expose new
    /// tables, sequences and functions in `public` to the Data API roles
    /// (`DataAPIDefaultPrivileges`); nil when not given.
    public var autoExposeNewTables: Bool?
    /// `[api] enabled`: false turns the Data API (PostgREST) off, so no request reaches
    /// the exposed schemas through it; nil when not given (on, the CLI's default).
    public var apiEnabled: Bool?

    public init(seed: Seed = Seed(), customAccessTokenHook: AccessTokenHook? = nil, majorVersion: Int? = nil,
                autoExposeNewTables: Bool? = nil) {
        self.seed = seed
        self.customAccessTokenHook = customAccessTokenHook
        self.majorVersion = majorVersion
        self.autoExposeNewTables = autoExposeNewTables
    }

    /// Reads and parses `file`; a malformed file or a value of the wrong type is a
    /// `ProjectLayoutError` naming the file (and the line, when TOMLKit gives it).
    public static func load(_ file: URL, shownAs shown: String? = nil) throws -> SupabaseConfig {
        let shown = shown ?? file.relativePath
        switch TextFile.read(atPath: file.path) {
        case .success(let text): return try parse(text, file: shown)
        case .failure(.unreadable): throw ProjectLayoutError.unreadable(file: shown)
        case .failure(.notUTF8): throw ProjectLayoutError.malformedConfig(file: shown, line: nil, message: "not valid UTF-8")
        }
    }

    /// Parses config.toml's text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws -> SupabaseConfig {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ProjectLayoutError.malformedConfig(
                file: file, line: error.source.begin.line, message: error.description)
        }
        let reader = ConfigReader(file: file)
        var config = SupabaseConfig()
        if let db = try reader.table(table, "db") {
            config.majorVersion = try reader.int(db, "major_version", key: "db.major_version")
        }
        if let seed = try reader.table(table, "db", "seed") {
            config.seed.enabled = try reader.bool(seed, "enabled", key: "db.seed.enabled") ?? true
            config.seed.sqlPaths = try reader.strings(seed, "sql_paths", key: "db.seed.sql_paths") ?? ["./seed.sql"]
        }
        if let api = try reader.table(table, "api") {
            config.autoExposeNewTables = try reader.bool(api, "auto_expose_new_tables", key: "api.auto_expose_new_tables")
            config.apiEnabled = try reader.bool(api, "enabled", key: "api.enabled")
        }
        if let buckets = try reader.table(table, "storage", "buckets") {
            config.storageBuckets = try buckets.keys.sorted().map { name in
                let key = "storage.buckets.\(name)"
                guard let bucket = try reader.table(buckets, name) else { return StorageBucket(name: name) }
                let limit = try reader.string(bucket, "file_size_limit", key: key + ".file_size_limit")
                return StorageBucket(
                    name: name, isPublic: try reader.bool(bucket, "public", key: key + ".public") ?? false,
                    fileSizeLimit: try limit.map { text in
                        guard let bytes = Self.bytes(text) else {
                            throw ProjectLayoutError.configValue(file: file, key: key + ".file_size_limit", expected: "a size such as \"50MiB\"")
                        }
                        return bytes
                    },
                    allowedMimeTypes: try reader.strings(bucket, "allowed_mime_types", key: key + ".allowed_mime_types"),
                    objectsPath: try reader.string(bucket, "objects_path", key: key + ".objects_path"))
            }
        }
        if let hook = try reader.table(table, "auth", "hook", "custom_access_token") {
            config.customAccessTokenHook = AccessTokenHook(
                enabled: try reader.bool(hook, "enabled", key: "auth.hook.custom_access_token.enabled") ?? false,
                uri: try reader.string(hook, "uri", key: "auth.hook.custom_access_token.uri"))
        }
        return config
    }
}

extension SupabaseConfig {
    /// A size as the Supabase CLI reads `file_size_limit` (docker's go-units RAMInBytes):
    /// a number, an optional space, an optional unit `k`, `m`, `g`, `t` or `p` (powers of
    /// 1024), then an optional `i` and an optional `b`, any case: `"50MiB"`, `"5MB"`, `"1024"`.
    package static func bytes(_ text: String) -> Int64? {
        var rest = Substring(text)
        let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !number.isEmpty, let value = Double(number) else { return nil }
        rest = rest.dropFirst(number.count)
        if rest.first == " " { rest = rest.dropFirst() }
        var power = 0.0
        if let unit = rest.first?.lowercased(), let index = ["k", "m", "g", "t", "p"].firstIndex(of: unit) {
            power = Double(index + 1)
            rest = rest.dropFirst()
        }
        if rest.first?.lowercased() == "i" { rest = rest.dropFirst() }
        if rest.first?.lowercased() == "b" { rest = rest.dropFirst() }
        guard rest.isEmpty else { return nil }
        let bytes = value * pow(1024, power)
        return bytes < Double(Int64.max) ? Int64(bytes) : nil
    }
}

/// Typed look-ups in a parsed TOML table; a value of the wrong type is an error naming its key.
private struct ConfigReader {
    let file: String

    func table(_ root: TOMLTable, _ path: String...) throws -> TOMLTable? {
        var current = root
        for (index, key) in path.enumerated() {
            guard let value = current[key] else { return nil }
            guard let next = value.table else {
                throw ProjectLayoutError.configValue(
                    file: file, key: path[...index].joined(separator: "."), expected: "a table")
            }
            current = next
        }
        return current
    }

    func bool(_ table: TOMLTable, _ name: String, key: String) throws -> Bool? {
        guard let value = table[name] else { return nil }
        guard let bool = value.bool else { throw ProjectLayoutError.configValue(file: file, key: key, expected: "true or false") }
        return bool
    }

    func int(_ table: TOMLTable, _ name: String, key: String) throws -> Int? {
        guard let value = table[name] else { return nil }
        guard let int = value.int else { throw ProjectLayoutError.configValue(file: file, key: key, expected: "a whole number") }
        return int
    }

    func string(_ table: TOMLTable, _ name: String, key: String) throws -> String? {
        guard let value = table[name] else { return nil }
        guard let string = value.string else { throw ProjectLayoutError.configValue(file: file, key: key, expected: "a string") }
        return string
    }

    func strings(_ table: TOMLTable, _ name: String, key: String) throws -> [String]? {
        guard let value = table[name] else { return nil }
        let wrong = ProjectLayoutError.configValue(file: file, key: key, expected: "an array of strings")
        guard let array = value.array else { throw wrong }
        return try array.map { element in
            guard let string = element.string else { throw wrong }
            return string
        }
    }
}
