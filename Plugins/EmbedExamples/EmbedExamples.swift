import Foundation
import PackagePlugin

/// Embeds `pgwarden init`'s projects in the binary without a copy in Sources:
/// `EmbedExamplesTool` reads the example files (Electric Ride at the repository's root,
/// the others under `examples/`) and writes them into a Swift file in the build folder.
///
/// The command's inputs are those files and their folders, so the next build runs it
/// again when a file changes, or when one is added to or removed from a folder (a
/// folder's time changes then). SwiftPM does not ask the plugin again for that, so the
/// tool lists the files itself. A file removed since the plugin last ran is a missing
/// input: the build names it; `touch Package.swift` (or `swift package clean`) makes
/// SwiftPM ask the plugin again.
@main
struct EmbedExamples: BuildToolPlugin {
    /// Where the examples' files are, relative to the repository (must match the tool's).
    static let places = ["migrations", "seeds", "access-plan.yml", "examples/todo", "examples/profiles", "examples/empty"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        for place in Self.places {
            let url = root.appending(path: place)
            inputs.append(url)
            guard let enumerator = FileManager.default.enumerator(atPath: url.path) else { continue }
            while let relative = enumerator.nextObject() as? String {
                inputs.append(url.appending(path: relative))
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedExampleFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding pgwarden init's example files",
                executable: try context.tool(named: "EmbedExamplesTool").url,
                arguments: [root.path, output.path],
                inputFiles: inputs.filter { FileManager.default.fileExists(atPath: $0.path) },
                outputFiles: [output])
        ]
    }
}
