/// A project `pgwarden init` can write: one of the examples, or an empty project.
/// The files are embedded in the binary (`EmbeddedExampleFiles.swift`, generated
/// from the repository's own example files and checked against them by a test).
package enum ProjectExample: String, CaseIterable, Sendable {
    /// Electric Ride, the repository's root project.
    case electricRide = "electric-ride"
    /// examples/todo: anonymous sign-in, owner-only items.
    case todo
    /// examples/profiles: profiles from social sign-in, a sign-up trigger and an RPC.
    case profiles
    /// examples/empty: no tables yet, a plan with the four usual personas.
    case empty

    /// The project's files, paths relative to the project folder, in path order.
    package var files: [ProjectFile] { Self.embeddedFiles[rawValue] ?? [] }

    /// Folders every project has, even when they hold no file.
    package static let folders = ["migrations", "seeds"]
}

/// One file of a project.
package struct ProjectFile: Sendable, Equatable {
    /// Relative to the project folder, with `/` separators.
    package let path: String
    package let text: String

    package init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
