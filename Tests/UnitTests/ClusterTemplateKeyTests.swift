import Foundation
import Testing
@testable import WardenKit

/// The template cache's key and manifest (docs/dev-cache.md), without a server.
struct ClusterTemplateKeyTests {
    private let server = "postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)"

    @Test func theKeyChangesWithTheServerAndWithTheTwin() {
        let key = ClusterTemplateKey.make(serverVersion: server, twin: "a")
        #expect(key.name.hasPrefix("pg15-") && key.name.count == "pg15-".count + 24)
        #expect(key == ClusterTemplateKey.make(serverVersion: server, twin: "a"))
        #expect(key != ClusterTemplateKey.make(serverVersion: server, twin: "b"))
        #expect(key != ClusterTemplateKey.make(serverVersion: "postgres (PostgreSQL) 15.15", twin: "a"))
        #expect(ClusterTemplateKey.make(serverVersion: "postgres (PostgreSQL) 16.1", twin: "a").name.hasPrefix("pg16-"))
    }

    @Test func theTwinVersionCoversTheInitdbOptionsAndTheServersUser() {
        let identity = RunIdentity(user: nil)
        let plain = ClusterTemplateKey.twinVersion(identity: identity, initdbArguments: ["--locale=C"])
        #expect(plain == ClusterTemplateKey.twinVersion(identity: identity, initdbArguments: ["--locale=C"]))
        #expect(plain != ClusterTemplateKey.twinVersion(identity: identity, initdbArguments: ["--locale=en_US"]))
        let other = RunIdentity(user: (name: "postgres", uid: 4242, gid: 4242))
        #expect(plain != ClusterTemplateKey.twinVersion(identity: other, initdbArguments: ["--locale=C"]))
    }

    @Test func aManifestRoundTripsAndACutOrChangedOneIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pgw-manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("base/5"), withIntermediateDirectories: true)
        try Data(count: 8192).write(to: folder.appendingPathComponent("base/5/1259"))
        try Data("15\n".utf8).write(to: folder.appendingPathComponent("PG_VERSION"))
        let manifest = try TemplateManifest(of: folder, key: "k")
        #expect(manifest.sizes == ["base/5/1259": 8192, "PG_VERSION": 3])
        #expect(TemplateManifest(parsing: manifest.text) == manifest)
        #expect(TemplateManifest(parsing: String(manifest.text.dropLast("end\n".count))) == nil)
        #expect(manifest.difference(from: manifest) == nil)
        try Data(count: 4096).write(to: folder.appendingPathComponent("base/5/1259"))
        #expect(try TemplateManifest(of: folder, key: "k").difference(from: manifest) == "base/5/1259 has 4096 bytes instead of 8192")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("PG_VERSION"))
        #expect(try TemplateManifest(of: folder, key: "k").difference(from: manifest) == "PG_VERSION is missing")
    }

    @Test func theUsersCacheFollowsTheEnvironment() {
        #expect(ClusterTemplateCache.user(environment: ["PGWARDEN_NO_CACHE": "1", "HOME": "/h"]) == nil)
        #expect(ClusterTemplateCache.user(environment: ["PGWARDEN_NO_CACHE": "0", "HOME": "/h"])?.directory.path == "/h/.cache/pgwarden")
        #expect(ClusterTemplateCache.user(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.directory.path == "/x/pgwarden")
        #expect(ClusterTemplateCache.user(environment: ["PGWARDEN_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x"])?.directory.path == "/c")
        #expect(ClusterTemplateCache.user(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"])?.directory.path == "/h/.cache/pgwarden")
    }
}
