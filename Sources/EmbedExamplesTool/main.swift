import Foundation

// Writes pgwarden init's example files as Swift source (run by the EmbedExamples build
// plugin when they change): `EmbedExamplesTool REPOSITORY OUTPUT`. Electric Ride is the
// repository's root project (migrations/*.sql, seeds/*.sql, access-plan.yml); the
// others are every file under examples/<name>. Each file becomes a raw string literal,
// under its example, in path order.

/// The examples under `examples/` (their folder names are `ProjectExample`'s raw values).
let folderExamples = ["todo", "profiles", "empty"]

func fail(_ message: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data("EmbedExamplesTool: \(message)\n".utf8))
    exit(status)
}

/// Every file under `folder` (recursively), relative to it; none when it does not exist.
func files(under folder: URL) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    return enumerator.compactMap { $0 as? String }.filter { relative in
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent(relative).path, isDirectory: &isFolder)
            && !isFolder.boolValue
    }
}

/// One example's files: (path in the project, file on disk), in path order.
func exampleFiles(_ example: String, root: URL) -> [(path: String, url: URL)] {
    var found: [(path: String, url: URL)] = []
    if example == "electric-ride" {
        for folder in ["migrations", "seeds"] {
            let base = root.appendingPathComponent(folder)
            found += files(under: base).filter { $0.hasSuffix(".sql") && !$0.contains("/") }
                .map { ("\(folder)/\($0)", base.appendingPathComponent($0)) }
        }
        found.append(("access-plan.yml", root.appendingPathComponent("access-plan.yml")))
    } else {
        let base = root.appendingPathComponent("examples/\(example)")
        found = files(under: base).map { ($0, base.appendingPathComponent($0)) }
    }
    return found.sorted { $0.path < $1.path }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: EmbedExamplesTool REPOSITORY OUTPUT", 64) }
let root = URL(fileURLWithPath: arguments[1], isDirectory: true)
let output = arguments[2]

var source = """
    // Written at build time by the EmbedExamples plugin (Plugins/EmbedExamples) from the
    // repository's example files; not kept in Sources.

    extension ProjectExample {
        static let embeddedFiles: [String: [ProjectFile]] = [

    """
for example in ["electric-ride"] + folderExamples {
    source += "        \"\(example)\": [\n"
    for file in exampleFiles(example, root: root) {
        guard let text = try? String(contentsOf: file.url, encoding: .utf8) else {
            fail("\(file.url.path): cannot read it as UTF-8", 65)
        }
        var hashes = "#"
        while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        source += "            ProjectFile(path: \"\(file.path)\", text: \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)),\n"
    }
    source += "        ],\n"
}
source += "    ]\n}\n"
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    fail("\(output): \(error)", 73)
}
