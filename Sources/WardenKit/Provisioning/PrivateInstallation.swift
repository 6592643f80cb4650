import Foundation

/// A private PostgreSQL installation tree for pgwarden's own ephemeral server, so
/// that it offers extensions the way Supabase does without touching system folders.
///
/// PostgreSQL finds its `share` folder (and so `share/extension`, the control files)
/// and its library folder relative to the real path of the running `postgres`
/// binary, using the layout it was built with (`pg_config --bindir --sharedir
/// --pkglibdir`). The tree repeats that layout under its own root:
///
/// - `postgres` itself is a copy (PostgreSQL resolves symlinks to find itself);
/// - the library folder is a symlink to the system's;
/// - `share` holds symlinks to the system's entries, except `extension`, a folder of
///   symlinks in which the control files of Supabase's privileged extensions
///   (`PrivilegedExtensions`) are copies marked `trusted = true`, so non-superuser
///   `postgres` with CREATE on the database may create them, and which also holds
///   pgwarden's stand-ins (`StandInExtensions`) for extensions the server lacks.
///
/// Details and sources: docs/supabase-twin.md, "Extensions".
package struct PrivateInstallation: Sendable {
    /// The tree's `postgres` binary.
    package let postgres: URL
    /// The tree's extension folder.
    package let extensionFolder: URL
    /// The libraries to preload (`shared_preload_libraries`): those of Supabase's
    /// that the server has (`SupabasePreloadedLibraries`).
    package let preloadLibraries: [String]
    /// The server's version as its `pg_config --version` reports it (read with the
    /// layout, so the template key needs no `postgres --version` of its own).
    package let serverVersion: String

    /// The system installation's folders, as `pg_config` reports them.
    struct Layout: Equatable {
        var bindir: String
        var sharedir: String
        var pkglibdir: String
        var version: String
    }

    /// Builds the tree in `root` (a new folder) for the server in `binaries`, or
    /// returns nil when the server's layout cannot be read (no `pg_config` beside
    /// it): the server then runs from the system's folders, without trusted
    /// privileged extensions or stand-ins.
    package static func build(in root: URL, binaries: PostgresBinaries) throws -> PrivateInstallation? {
        guard let layout = layout(of: binaries) else { return nil }
        do {
            return try build(in: root, binaries: binaries, layout: layout)
        } catch let error as ProvisioningError {
            throw error
        } catch {
            throw ProvisioningError.serverFailed(
                step: "building the server's private installation tree in \(root.path)", log: error.localizedDescription)
        }
    }

    private static func build(in root: URL, binaries: PostgresBinaries, layout: Layout) throws -> PrivateInstallation? {
        let prefix = commonFolderPrefix([layout.bindir, layout.sharedir, layout.pkglibdir])
        guard !prefix.isEmpty else { return nil }
        func inTree(_ path: String) -> URL { root.appendingPathComponent(String(path.dropFirst(prefix.count))) }
        let manager = FileManager.default
        let bin = inTree(layout.bindir), share = inTree(layout.sharedir), lib = inTree(layout.pkglibdir)
        for folder in [bin, share, lib.deletingLastPathComponent()] {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        let postgres = bin.appendingPathComponent("postgres")
        let server = binaries.postgres.resolvingSymlinksInPath().path
        var status = stat()
        guard stat(server, &status) == 0 else { throw ProvisioningError.binariesMissing(searched: [server]) }
        _ = try DataDirectoryCopy.copyFile(at: server, to: postgres.path, mode: status.st_mode, owner: nil)
        try manager.createSymbolicLink(atPath: lib.path, withDestinationPath: layout.pkglibdir)
        try linkEntries(of: layout.sharedir, into: share, except: ["extension"])
        let extensions = share.appendingPathComponent("extension")
        try manager.createDirectory(at: extensions, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let systemExtensions = layout.sharedir + "/extension"
        let trusted = Set(PrivilegedExtensions.names.map { "\($0).control" })
        try linkEntries(of: systemExtensions, into: extensions, except: trusted)
        for name in trusted {
            // A control file the system lacks: an extension this server does not have.
            guard let control = manager.contents(atPath: "\(systemExtensions)/\(name)") else { continue }
            // Readable by the server's OS user whatever the umask (it may not be the caller).
            try NewFile.write(trustedControl(Array(control)), to: extensions.appendingPathComponent(name).path, mode: 0o644)
        }
        try StandInExtensions.install(into: extensions)
        let preload = SupabasePreloadedLibraries.available(in: layout.pkglibdir) { manager.fileExists(atPath: $0) }
        return PrivateInstallation(
            postgres: postgres, extensionFolder: extensions, preloadLibraries: preload, serverVersion: layout.version)
    }

    /// Reads the layout from the `pg_config` beside the server programs.
    static func layout(of binaries: PostgresBinaries) -> Layout? {
        let pgConfig = binaries.directory.appendingPathComponent("pg_config").path
        guard FileManager.default.isExecutableFile(atPath: pgConfig),
            let output = try? ProcessRunner.runBrief(pgConfig, ["--bindir", "--sharedir", "--pkglibdir", "--version"]),
            output.status == 0
        else { return nil }
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        guard lines.count == 4, lines.prefix(3).allSatisfy({ $0.hasPrefix("/") }), lines[3].hasPrefix("PostgreSQL ")
        else { return nil }
        return Layout(bindir: lines[0], sharedir: lines[1], pkglibdir: lines[2], version: lines[3])
    }

    /// The longest folder path (ending in `/`) that starts every path.
    static func commonFolderPrefix(_ paths: [String]) -> String {
        guard let first = paths.first else { return "" }
        var prefix = ""
        var folder = ""
        for character in first {
            folder.append(character)
            guard character == "/" else { continue }
            if paths.allSatisfy({ $0.hasPrefix(folder) }) { prefix = folder } else { break }
        }
        return prefix
    }

    private static func linkEntries(of folder: String, into target: URL, except skipped: Set<String>) throws {
        let targetPath = target.path
        for entry in try FileManager.default.contentsOfDirectory(atPath: folder) where !skipped.contains(entry) {
            try NewFile.link("\(targetPath)/\(entry)", to: "\(folder)/\(entry)")
        }
    }

    /// A control file with any `trusted` and `superuser` lines replaced by
    /// `trusted = true` and `superuser = true`: the script then runs as the bootstrap
    /// superuser, which owns what it creates, as supautils runs a privileged extension's
    /// script as `supabase_admin`. An extension whose own control file says
    /// `superuser = false` (pgTAP) would otherwise run as `postgres`, and `postgres`'s
    /// default privileges (a project's `revoke execute on functions from public`) would
    /// take EXECUTE on its functions from anon and authenticated, as they do not on
    /// Supabase (supabase/supautils `src/supautils.c`, privileged extensions: created
    /// after switching to the superuser).
    ///
    /// Bytes, not `String`: every `dev` rewrites about forty of these, and Foundation's
    /// line trimming made that 3 ms.
    static func trustedControl(_ control: [UInt8]) -> [UInt8] {
        let newline = UInt8(ascii: "\n")
        var kept: [UInt8] = []
        for line in control.split(separator: newline, omittingEmptySubsequences: false) {
            let text = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if text.starts(with: "trusted".utf8) || text.starts(with: "superuser".utf8) { continue }
            kept += line
            kept.append(newline)
        }
        while let last = kept.last, last == newline || last == UInt8(ascii: "\r") { kept.removeLast() }
        return kept + Array("\n# pgwarden: trusted, as supautils lets postgres create it on Supabase\ntrusted = true\nsuperuser = true\n".utf8)
    }
}
