/// A project `pgwarden init` can write: one of the examples, or an empty project.
/// The files are embedded in the binary: the EmbedExamples build plugin writes
/// `embeddedFiles` from the repository's own example files at every build
/// (Plugins/EmbedExamples), and a test checks them against those files.
public enum ProjectExample: String, CaseIterable, Sendable {
    /// Electric Ride, the repository's root project.
    case electricRide = "electric-ride"
    /// examples/todo: anonymous sign-in, owner-only items.
    case todo
    /// examples/profiles: profiles from social sign-in, a sign-up trigger and an RPC.
    case profiles
    /// examples/empty: no tables yet, a plan with the four usual personas.
    case empty

    /// The project's files, paths relative to the project folder, in path order.
    public var files: [ProjectFile] { Self.embeddedFiles[rawValue] ?? [] }

    /// Folders every project has, even when they hold no file.
    public static let folders = ["migrations", "seeds"]
}

/// One file of a project.
public struct ProjectFile: Sendable, Equatable {
    /// Relative to the project folder, with `/` separators.
    public let path: String
    /// The file's contents.
    public let text: String

    /// A file at `path` (relative, `/` separators) holding `text`.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
