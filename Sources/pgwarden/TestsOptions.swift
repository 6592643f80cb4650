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

    /// Whether the access plan runs: always when there is no suite (a missing plan is
    /// then the error it always was); with a suite, when the plan file exists or was
    /// named with --plan (a missing default plan then leaves pgTAP alone to decide).
    static func runsPlan(_ planFile: URL, named: Bool, suite: PgTAPSuite?) -> Bool {
        suite == nil || named || FileManager.default.fileExists(atPath: planFile.path)
    }
}
