import ArgumentParser
import Foundation
import WardenKit

/// `--tests DIR`: the folder of pgTAP test files (`*.sql`, `*.pg`, recursively).
struct TestsOptions: ParsableArguments {
    @Option(
        name: .customLong("tests"),
        help: ArgumentHelp(
            "The folder of pgTAP test files (*.sql and *.pg, recursively, in name order). Default: supabase/tests "
                + "when it exists, else tests/ when it holds .sql or .pg files, else none.",
            valueName: "DIR"),
        completion: .directory)
    var folder: String?

    /// The suite to run, read and checked: `--tests DIR` (which must exist), else the
    /// folder found in the project's root, else nil.
    func suite(in layout: ProjectLayout) throws -> PgTAPSuite? {
        if let folder { return try PgTAPSuite(folder: folder) }
        return try PgTAPSuite.discover(in: layout.root.relativePath).map { try PgTAPSuite(folder: $0) }
    }

    /// Whether there is an access plan to prove: a file at --plan, or at the layout's
    /// plan path. Without one, `test` and `dev` show the access as observed, under a
    /// heading that names the path they looked at (so a mistyped --plan is visible).
    static func hasPlan(_ layout: ProjectLayout) -> Bool {
        FileManager.default.fileExists(atPath: layout.planFile.path)
    }
}
