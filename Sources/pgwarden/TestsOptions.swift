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

    /// Whether there is an access plan to prove at the layout's plan path. Without one,
    /// `test` and `dev` show the access as observed, under a heading that names the path
    /// they looked at. A plan named by `--plan` (`named`) must exist: a mistyped path in
    /// CI would otherwise turn a failing plan into a green run.
    static func hasPlan(_ layout: ProjectLayout, named: String?) throws -> Bool {
        if FileManager.default.fileExists(atPath: layout.planFile.path) { return true }
        guard let named else { return false }
        throw AccessPlanError(
            file: named, line: nil,
            message: "no such file; --plan names a plan that must exist (leave --plan out to see the access as observed, "
                + "or write a first plan with pgwarden plan draft --output \(named))")
    }
}
