import Foundation
import Testing
@testable import WardenKit

/// Every input file pgwarden reads whole (a plan, a seed, config.toml, a pgTAP file)
/// is read by `TextFile`: a missing file and bytes that are not UTF-8 each get the
/// reader's own error, naming the file; a seed's NUL byte is named by its line.
@Suite final class TextInputFileTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pgwarden-text-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Writes `bytes` to `name` in the folder and returns its path.
    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private let latin1: [UInt8] = Array("select 'caf".utf8) + [0xE9] + Array("';\n".utf8)

    @Test func textFileTellsAMissingFileFromBytesThatAreNotUTF8() throws {
        #expect(TextFile.read(atPath: folder.appendingPathComponent("none").path) == .failure(.unreadable))
        #expect(TextFile.read(atPath: folder.path) == .failure(.unreadable))
        #expect(TextFile.read(atPath: try file("latin1.sql", latin1)) == .failure(.notUTF8))
        #expect(TextFile.read(atPath: try file("ok.sql", Array("select 'café';\n".utf8))) == .success("select 'café';\n"))
    }

    @Test func aPlanFile() throws {
        let notUTF8 = try file("plan.yml", Array("personas: {}\n# ".utf8) + [0xFF])
        #expect(throws: AccessPlanError.self) { try AccessPlanParser.load(path: notUTF8) }
        do { _ = try AccessPlanParser.load(path: notUTF8) } catch {
            #expect("\(error)".contains("plan.yml") && "\(error)".contains("not valid UTF-8"), "\(error)")
        }
        do { _ = try AccessPlanParser.load(path: folder.appendingPathComponent("missing.yml").path) } catch {
            #expect("\(error)".contains("missing.yml") && "\(error)".contains("cannot read the plan file"), "\(error)")
        }
    }

    /// A plan file over the budget is refused by its size, before it is read: its bytes
    /// (not UTF-8 here) would otherwise be the error.
    @Test func aPlanFileOverTheBudgetIsRefusedByItsSize() throws {
        let huge = try file("huge.yml", [0xFF] + Array(repeating: UInt8(ascii: "#"), count: YAMLBudget.maxBytes))
        do {
            _ = try AccessPlanParser.load(path: huge)
            Issue.record("a plan file of \(YAMLBudget.maxBytes + 1) bytes was read")
        } catch {
            #expect(
                "\(error)".contains("huge.yml")
                    && "\(error)".contains("is \(YAMLBudget.maxBytes + 1) bytes; plans over \(YAMLBudget.maxBytes) bytes are refused"),
                "\(error)")
        }
    }

    @Test func aSeedFile() throws {
        let notUTF8 = URL(fileURLWithPath: try file("seed.sql", latin1))
        #expect(throws: SeedError.self) { try SeedScripts.read(notUTF8) }
        do { _ = try SeedScripts.read(notUTF8) } catch { #expect("\(error)".contains("not valid UTF-8"), "\(error)") }
        let nul = URL(fileURLWithPath: try file("nul.sql", Array("select 1;\nselect 2;\nselect '".utf8) + [0] + Array("';\n".utf8)))
        do {
            _ = try SeedScripts.read(nul)
            Issue.record("a NUL byte was read")
        } catch let error as SeedError {
            #expect(error.line == 3 && error.message.contains("NUL byte"), "\(error)")
        }
        do { _ = try SeedScripts.read(folder.appendingPathComponent("missing.sql")) } catch {
            #expect("\(error)".contains("cannot read the seed file"), "\(error)")
        }
    }

    @Test func configToml() throws {
        let notUTF8 = URL(fileURLWithPath: try file("config.toml", Array("[db]\nmajor_version = 15\n# ".utf8) + [0xC3]))
        do {
            _ = try SupabaseConfig.load(notUTF8)
            Issue.record("a config.toml that is not UTF-8 was read")
        } catch let error as ProjectLayoutError {
            #expect(error == .malformedConfig(file: notUTF8.relativePath, line: nil, message: "not valid UTF-8"))
        }
        do { _ = try SupabaseConfig.load(folder.appendingPathComponent("none.toml")) } catch let error as ProjectLayoutError {
            #expect(error == .unreadable(file: folder.appendingPathComponent("none.toml").relativePath))
        }
    }

    @Test func aPgTAPFile() throws {
        let notUTF8 = try file("a_test.sql", latin1)
        let missing = folder.appendingPathComponent("b_test.sql").path
        let scripts = PgTAPSuite.scripts(of: [notUTF8, missing], workingDirectory: folder.path)
        #expect(throws: PgTAPError.unreadable(file: notUTF8, reason: "not UTF-8")) { try scripts[0].script.get() }
        #expect(throws: PgTAPError.unreadable(file: missing, reason: "missing or unreadable")) { try scripts[1].script.get() }
    }
}
