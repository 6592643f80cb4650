import Crypto
import Foundation

/// What a bootstrapped cluster template depends on, as a folder name: the PostgreSQL
/// server (its version, and the size and modification time of its `postgres`) and the twin version (a SHA-256 of pgwarden's version,
/// the twin's SQL, the stand-ins, the privileged extensions, `initdb`'s arguments and
/// the OS user the server runs as). When any of them changes, the key changes and the
/// template is rebuilt.
public struct ClusterTemplateKey: Equatable, Sendable {
    /// The folder name: `pg<major>-<first 24 hex digits of the twin hash>`.
    public let name: String

    init(name: String) {
        self.name = name
    }

    /// The key for the server in `binaries`, run as `identity`. `knownVersion`: the
    /// server's version when already read (`pg_config --version`, with the private
    /// installation's layout); otherwise `postgres --version` is run (about 10 ms).
    static func current(binaries: PostgresBinaries, knownVersion: String?, identity: RunIdentity,
                        initdbArguments: [String]) throws -> ClusterTemplateKey {
        var serverVersion = knownVersion ?? ""
        if serverVersion.isEmpty {
            let output = try ProcessRunner.runBrief(binaries.postgres.path, ["--version"])
            serverVersion = output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            guard output.status == 0, !serverVersion.isEmpty else {
                throw TemplateCacheProblem("\(binaries.postgres.path) --version failed")
            }
        }
        // A server rebuilt or patched without a new version number still changes the key.
        var status = stat()
        guard stat(binaries.postgres.resolvingSymlinksInPath().path, &status) == 0 else {
            throw TemplateCacheProblem("\(binaries.postgres.path) cannot be read")
        }
        let stamp = "postgres \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        return make(serverVersion: serverVersion, twin: twinVersion(identity: identity, initdbArguments: initdbArguments) + "\n" + stamp)
    }

    /// The key for a server version (`postgres (PostgreSQL) 15.14 …`) and a twin hash.
    static func make(serverVersion: String, twin: String) -> ClusterTemplateKey {
        var hasher = SHA256()
        hasher.update(data: Data((serverVersion + "\n" + twin).utf8))
        let hex = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        let major = serverVersion.split(separator: " ").last.map { $0.split(separator: ".").first.map(String.init) ?? "" } ?? ""
        let safeMajor = major.filter { $0.isNumber || $0.isLetter }
        return ClusterTemplateKey(name: "pg\(safeMajor.isEmpty ? "x" : safeMajor)-\(hex.prefix(24))")
    }

    /// SHA-256 (hex) of everything pgwarden puts into a template besides the server.
    static func twinVersion(identity: RunIdentity, initdbArguments: [String]) -> String {
        var hasher = SHA256()
        func add(_ label: String, _ bytes: [UInt8]) {
            hasher.update(data: Data("\(label) \(bytes.count)\n".utf8))
            hasher.update(data: Data(bytes))
        }
        add("pgwarden", Array(WardenKit.version.utf8))
        for script in SupabaseCompat.scripts { add(script.name, Array(script.sql.utf8)) }
        for standIn in StandInExtensions.all {
            let control = standIn.comment + standIn.requires.joined(separator: ",") + (standIn.schema.map { " schema=\($0)" } ?? "")
            add(standIn.name, Array(control.utf8) + standIn.script)
        }
        add("privileged", Array(PrivilegedExtensions.names.joined(separator: ",").utf8))
        add("initdb", Array(initdbArguments.joined(separator: " ").utf8))
        add("tidied", Array(LocalCluster.templateTidying.utf8))
        add("owner", Array((identity.user.map { "\($0.uid):\($0.gid)" } ?? "\(geteuid())").utf8))
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
