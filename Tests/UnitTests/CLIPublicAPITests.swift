import Foundation
import Testing
import TestSupport

/// The CLI is the library's first user: `Sources/pgwarden` reaches WardenKit and
/// WardenPostgres through their public API only, never through `package` symbols
/// (which the executable could see, being in the same package).
@Suite struct CLIPublicAPITests {
    static let root = PackagePaths.root

    /// Top-level `package` types of the libraries (nested ones are reached through them).
    static func packageTypeNames() throws -> Set<String> {
        let declaration = try Regex(#"(?m)^package\s+(?:final\s+)?(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)"#)
        var names: Set<String> = []
        for folder in ["Sources/WardenKit", "Sources/WardenPostgres"] {
            for file in try swiftFiles(in: folder) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: declaration) {
                    if let name = match.output[1].substring { names.insert(String(name)) }
                }
            }
        }
        return names
    }

    static func swiftFiles(in folder: String) throws -> [URL] {
        let base = root.appendingPathComponent(folder)
        let enumerator = try #require(FileManager.default.enumerator(atPath: base.path))
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
            .map { base.appendingPathComponent($0) }
    }

    @Test func theLibrariesStillHavePackageTypes() throws {
        // Guards the scan below: if it found nothing, the next test would prove nothing.
        let names = try Self.packageTypeNames()
        #expect(names.contains("Migrator") && names.contains("AccessPlanRunner") && names.count > 30, "\(names.sorted())")
    }

    @Test func noCommandNamesAPackageType() throws {
        let names = try Self.packageTypeNames()
        let word = try Regex(#"[A-Za-z_][A-Za-z0-9_]*"#)
        var uses: [String] = []
        for file in try Self.swiftFiles(in: "Sources/pgwarden") {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//")[0]
                for match in code.matches(of: word) where names.contains(String(code[match.range])) {
                    uses.append("Sources/pgwarden/\(file.lastPathComponent):\(index + 1): \(code[match.range])")
                }
            }
        }
        #expect(uses.isEmpty, "the CLI uses package-level types; add what it needs to the public API:\n\(uses.joined(separator: "\n"))")
    }

    /// The stronger check: the executable's sources type-check as another package's
    /// code would (a different `-package-name`), against the modules `swift build` made,
    /// so no `package` member is used either.
    @Test func theCommandsTypeCheckAsAnotherPackage() throws {
        let modules = try Self.buildFolder()
        let scratch = modules.deletingLastPathComponent().deletingLastPathComponent()
        let checkouts = scratch.appendingPathComponent("checkouts").path
        var arguments = ["swiftc", "-typecheck", "-wmo", "-parse-as-library", "-swift-version", "6",
                         "-package-name", "public_api_check", "-DSWIFT_PACKAGE",
                         "-I", modules.appendingPathComponent("Modules").path,
                         "-module-cache-path", modules.appendingPathComponent("ModuleCache").path]
        let moduleMaps = [
            modules.appendingPathComponent("CTOML.build/module.modulemap").path,
            "\(checkouts)/swift-crypto/Sources/CCryptoBoringSSLShims/include/module.modulemap",
            "\(checkouts)/swift-crypto/Sources/CCryptoBoringSSL/include/module.modulemap",
            "\(checkouts)/Yams/Sources/CYaml/include/module.modulemap",
            modules.appendingPathComponent("CLibPQ.build/module.modulemap").path,
        ]
        for map in moduleMaps { arguments += ["-Xcc", "-fmodule-map-file=\(map)"] }
        arguments += ["-Xcc", "-I\(checkouts)/TOMLKit/Sources/CTOML/include",
                      "-Xcc", "-I\(Self.root.appendingPathComponent("Sources/CLibPQ/include").path)"]
        arguments += try Self.swiftFiles(in: "Sources/pgwarden").map(\.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let errors = text.components(separatedBy: "\n").filter { $0.contains("error:") }
        #expect(process.terminationStatus == 0 && errors.isEmpty,
                "Sources/pgwarden uses what only its own package can see:\n\(errors.joined(separator: "\n"))\n\(text.suffix(2000))")
    }

    /// The folder of this build's products (`.build/<triple>/debug`): where this test
    /// runs from, holding `Modules/WardenKit.swiftmodule`.
    static func buildFolder() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Modules/WardenKit.swiftmodule").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Modules/WardenKit.swiftmodule near \(CommandLine.arguments[0])"])
    }
}
