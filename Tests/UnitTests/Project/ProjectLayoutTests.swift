import Foundation
import Testing
import WardenKit
import TestSupport

/// Finding a project's layout: pgwarden's own, and a Supabase CLI project's, with
/// config.toml read by TOMLKit.
@Suite struct ProjectLayoutTests {
    func make(_ files: [String: String], folders: [String] = []) throws -> TemporaryFolder {
        let root = try TemporaryFolder()
        for folder in folders {
            try FileManager.default.createDirectory(atPath: "\(root.path)/\(folder)", withIntermediateDirectories: true)
        }
        for (name, text) in files {
            let directory = (name as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                try FileManager.default.createDirectory(
                    atPath: "\(root.path)/\(directory)", withIntermediateDirectories: true)
            }
            try root.write(name, text)
        }
        return root
    }

    @Test func aFolderWithoutSupabaseHasPgwardensLayout() throws {
        let root = try make([:], folders: ["migrations"])
        let layout = try ProjectLayout.discover(in: URL(fileURLWithPath: root.path))
        #expect(layout.kind == .pgwarden)
        #expect(layout.migrationsDirectory.path == "\(root.path)/migrations")
        #expect(layout.seeds == .folder(URL(fileURLWithPath: "\(root.path)/seeds")))
        #expect(layout.planFile.path == "\(root.path)/access-plan.yml")
        #expect(layout.project.supabaseHistory == false)
    }

    @Test func supabaseMigrationsAloneMakeASupabaseProjectWithTheDefaultSeed() throws {
        let root = try make(["supabase/seed.sql": "select 1;"], folders: ["supabase/migrations"])
        let layout = try ProjectLayout.discover(in: URL(fileURLWithPath: root.path))
        #expect(layout.kind == .supabase)
        #expect(layout.supabaseConfig == nil)
        #expect(layout.migrationsDirectory.path == "\(root.path)/supabase/migrations")
        #expect(try layout.seeds.files().map(\.path) == ["\(root.path)/supabase/seed.sql"])
        #expect(layout.testsDirectory.path == "\(root.path)/supabase/tests")
        #expect(layout.planFile.path == "\(root.path)/supabase/access-plan.yml")
        #expect(layout.project.supabaseHistory)
        #expect(layout.summary.hasPrefix("layout: Supabase CLI project (migrations \(root.path)/supabase/migrations"))
    }

    @Test func seedGlobsExpandInTheOrderWrittenAndAMissingSeedIsNoError() throws {
        let root = try make([
            "supabase/config.toml": """
                project_id = "demo"
                [db.seed]
                enabled = true
                sql_paths = ["./seeds/*.sql", "./seed.sql", "./seeds/b_second.sql"]
                """,
            "supabase/seeds/b_second.sql": "select 2;", "supabase/seeds/a_first.sql": "select 1;",
        ])
        let layout = try ProjectLayout.discover(in: URL(fileURLWithPath: root.path))
        #expect(try layout.seeds.files().map(\.lastPathComponent) == ["a_first.sql", "b_second.sql"])
        #expect(layout.notes == ["[db.seed] ./seed.sql: no file matches; skipped"])
    }

    @Test func seedingTurnedOffAndTheAccessTokenHookAreRead() throws {
        let root = try make([
            "supabase/config.toml": """
                [db.seed]
                enabled = false
                [auth.hook.custom_access_token]
                enabled = true
                uri = "pg-functions://postgres/public/custom_access_token_hook"
                """,
        ])
        let layout = try ProjectLayout.discover(in: URL(fileURLWithPath: root.path))
        #expect(layout.seeds == .disabled)
        #expect(layout.supabaseConfig?.customAccessTokenHook == SupabaseConfig.AccessTokenHook(
            enabled: true, uri: "pg-functions://postgres/public/custom_access_token_hook"))
    }

    @Test func aMalformedConfigIsOneLineNamingFileAndLine() throws {
        let root = try make(["supabase/config.toml": "project_id = \"demo\"\n[db.seed\nenabled = true\n"])
        #expect {
            try ProjectLayout.discover(in: URL(fileURLWithPath: root.path))
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("\(root.path)/supabase/config.toml:2: malformed config.toml: ") && !text.contains("\n")
        }
    }

    @Test func aValueOfTheWrongTypeNamesItsKey() throws {
        let root = try make(["supabase/config.toml": "[db.seed]\nsql_paths = \"./seed.sql\"\n"])
        #expect(throws: ProjectLayoutError.configValue(
            file: "\(root.path)/supabase/config.toml", key: "db.seed.sql_paths", expected: "an array of strings")) {
            try ProjectLayout.discover(in: URL(fileURLWithPath: root.path))
        }
    }

    @Test func aFlagThatIsNoBooleanNamesItsKey() throws {
        #expect(throws: ProjectLayoutError.configValue(file: "c.toml", key: "db.seed.enabled", expected: "true or false")) {
            try SupabaseConfig.parse("[db.seed]\nenabled = \"yes\"\n", file: "c.toml")
        }
        #expect(throws: ProjectLayoutError.configValue(file: "c.toml", key: "auth.hook", expected: "a table")) {
            try SupabaseConfig.parse("[auth]\nhook = 1\n", file: "c.toml")
        }
        #expect(try SupabaseConfig.parse("", file: "c.toml") == SupabaseConfig())
    }

    @Test func theProjectsPostgresMajorVersionIsRead() throws {
        #expect(try SupabaseConfig.parse("[db]\nport = 54322\nmajor_version = 17\n", file: "c.toml").majorVersion == 17)
        #expect(try SupabaseConfig.parse("[db.seed]\nenabled = true\n", file: "c.toml").majorVersion == nil)
        #expect(throws: ProjectLayoutError.configValue(file: "c.toml", key: "db.major_version", expected: "a whole number")) {
            try SupabaseConfig.parse("[db]\nmajor_version = \"17\"\n", file: "c.toml")
        }
    }

    /// `[storage.buckets.<name>]` as the Supabase CLI's template writes them; sizes read
    /// base 2 as the CLI reads them (go-units RAMInBytes); a size it cannot read names its key.
    @Test func theStorageBucketsAreRead() throws {
        let config = try SupabaseConfig.parse("""
            [storage]
            enabled = true
            [storage.buckets.images]
            public = true
            file_size_limit = "50MiB"
            allowed_mime_types = ["image/png", "image/jpeg"]
            objects_path = "./images"
            [storage.buckets.avatars]
            """, file: "c.toml")
        #expect(config.storageBuckets == [
            SupabaseConfig.StorageBucket(name: "avatars"),
            SupabaseConfig.StorageBucket(name: "images", isPublic: true, fileSizeLimit: 52_428_800,
                                         allowedMimeTypes: ["image/png", "image/jpeg"], objectsPath: "./images"),
        ])
        #expect(["1024": 1024, "5MB": 5_242_880, "1 GiB": 1_073_741_824, "2k": 2048, "1.5m": 1_572_864].allSatisfy {
            SupabaseConfig.bytes($0.key) == Int64($0.value)
        })
        #expect(SupabaseConfig.bytes("lots") == nil && SupabaseConfig.bytes("5 XB") == nil && SupabaseConfig.bytes("") == nil)
        #expect(throws: ProjectLayoutError.configValue(file: "c.toml", key: "storage.buckets.images.file_size_limit", expected: "a size such as \"50MiB\"")) {
            try SupabaseConfig.parse("[storage.buckets.images]\nfile_size_limit = \"big\"\n", file: "c.toml")
        }
        #expect(throws: ProjectLayoutError.configValue(file: "c.toml", key: "storage.buckets.images.public", expected: "true or false")) {
            try SupabaseConfig.parse("[storage.buckets.images]\npublic = \"yes\"\n", file: "c.toml")
        }
    }

    @Test func flagsWinOverTheLayout() throws {
        let root = try make(["access-plan.yml": "x"], folders: ["supabase/migrations"])
        let layout = try ProjectLayout.discover(in: URL(fileURLWithPath: root.path))
        #expect(layout.planFile.path == "\(root.path)/access-plan.yml")  // the root's plan, when supabase/ has none
        let overridden = layout.overriding(migrations: "db/m", seeds: "db/seeds", plan: "p.yml")
        #expect(overridden.migrationsDirectory.relativePath == "db/m")
        #expect(overridden.seeds == .folder(URL(fileURLWithPath: "db/seeds")))
        #expect(overridden.planFile.relativePath == "p.yml")
        #expect(overridden.kind == .supabase)
    }
}
