import ArgumentParser
import Foundation
import WardenKit
import WardenPostgres

/// `pgwarden lint`: Supabase advisor's access findings, each with its proven consequence.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Find what Supabase's Security Advisor would flag, and prove what each finding lets a persona do.",
        discussion: """
            Reads the catalog for the access findings of Supabase's advisor (splinter: \
            security_definer_view, anon_security_definer_function_executable, \
            rls_disabled_in_public, rls_policy_always_true, ...; docs/lint.md), then acts as \
            anon and signed-in users, inside a transaction that is rolled back, to show what \
            each finding lets them do: rows read through a definer view, rows a definer \
            function changed, rows written as another user. Nothing is left changed; what a \
            rollback cannot undo (a function's dblink or other outside effects, sequences) is \
            not undone either: on a live database, --no-probes only reads the catalog. \
            With --plan (default access-plan.yml, when it exists), a finding whose \
            consequence the plan declares is "intended", and the probes act as the plan's \
            personas (its anon, first two signed-in users with an email, service_role: their \
            email and metadata:); without one, as drafted users ava and ben (--user-metadata \
            gives them the metadata a sign-up trigger needs). A signed-in persona whose sign-up \
            the database refuses is left out and named; what needed it is not probed. \
            Findings name the migration file \
            and line that created the object (found by searching --migrations). \
            Exit status 1 when a finding is a danger (a proven consequence the plan does not \
            declare, or an unprobed ERROR-level security finding) or a persona was left out, \
            0 otherwise; 65 bad plan \
            file; 69 server unreachable; 73 the --output file cannot be written.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit, github, markdown
    }

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var migrations: MigrationsOptions

    @Option(help: ArgumentHelp(
                "The access-plan file (used when it exists; default: access-plan.yml, or supabase/access-plan.yml "
                    + "in a Supabase project).", valueName: "FILE"),
            completion: .file(extensions: ["yml", "yaml"]))
    var plan: String?

    @Option(help: ArgumentHelp(
        "An exposed schema (repeat for more; default: the plan's, else the project's own among config.toml's [api] schemas, else public).",
        valueName: "SCHEMA"))
    var schema: [String] = []

    @OptionGroup var userMetadata: UserMetadataOptions

    @Flag(help: "Only read the catalog: call no function and write nothing, not even in a rolled-back transaction (no consequences are proven).")
    var noProbes = false

    @Option(help: "Report format: text, json, junit, github (annotations on migration lines; the Markdown table also goes to $GITHUB_STEP_SUMMARY when set) or markdown.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Write the report (in --format) to this file; the terminal gets the text.", valueName: "FILE"),
            completion: .file())
    var output: String?

    func run() throws {
        try ErrorReporter.run {
            let layout = try migrations.project.layout(
                migrations: migrations.folder, plan: plan, allGiven: migrations.folder != nil && plan != nil)
            let planFile = layout.planFile.relativePath
            let accessPlan = FileManager.default.fileExists(atPath: planFile)
                ? try AccessPlan(contentsOf: layout.planFile, projectRoot: layout.root) : nil
            accessPlan?.noteConfiguredSchemasLeftOut()
            // Without a plan, the project's config.toml says where its API looks and how it
            // signs in (read before anything connects: a wrong value reaches no server).
            let api = accessPlan == nil ? try ProjectAPISettings(nearPlan: layout.planFile.path, projectRoot: layout.root) : nil
            let passed: Bool
            if try ProjectTwin.standIn(databaseURL: database.databaseURL, layout: { layout }) != nil {
                passed = try ProjectTwin.run(layout, withPlan: false, noCache: false, progress: .onStandardError(),
                                             say: Terminal.note) {
                    try lint(on: $0.provision(), layout: layout, plan: accessPlan, api: api)
                }
            } else {
                passed = try lint(on: database.connect(), layout: layout, plan: accessPlan, api: api)
            }
            if !passed { throw ExitStatus.failure }
        }
    }

    /// Lints the database on `connection` and prints the report; whether it passed.
    private func lint(on connection: Connection, layout: ProjectLayout, plan accessPlan: AccessPlan?,
                      api: ProjectAPISettings?) throws -> Bool {
        var api = api
        if schema.isEmpty { api = try api?.forDatabase(connection) }
        let schemas = !schema.isEmpty ? schema : accessPlan?.schemas ?? api?.exposedSchemas ?? ["public"]
        let folder = ProjectTwin.isFolder(layout.migrationsDirectory) ? layout.migrationsDirectory : nil
        var linter = Linter(connection: connection, schemas: schemas, userMetadata: userMetadata.metadata)
        if let api { linter.api = api }
        let report = try linter.run(plan: accessPlan, migrations: folder, probing: !noProbes)
        try LintPrinter(format: format, output: output).print(report)
        return report.passed
    }
}
