import ArgumentParser
import Foundation
import PgwardenExamples
import WardenKit
import WardenPostgres

/// `pgwarden plan`: commands about the access-plan file.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Work with the access-plan file.",
        subcommands: [PlanDraftCommand.self])
}

/// `pgwarden plan draft`: write a starting access plan from a live database.
struct PlanDraftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draft",
        abstract: "Draft an access plan from a live database, with every cell as the database behaves now.",
        discussion: """
            Reads the exposed schemas (tables, views, functions, policies, foreign keys) and \
            probes them as anon, two signed-in users and service_role, inside transactions \
            that are rolled back: nothing is left changed. Writes the plan to standard output, \
            or to --output FILE (never over an existing file: exit status 65). Cells that look \
            dangerous carry a DANGER comment; review every cell before you rely on it.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(
        help: ArgumentHelp("Write the plan to this file instead of standard output.", valueName: "FILE"),
        completion: .file(extensions: ["yml", "yaml"]))
    var output: String?

    @Option(help: ArgumentHelp(
        "An exposed schema (repeat for more; default: the project's own among config.toml's [api] schemas, else public).",
        valueName: "SCHEMA"))
    var schema: [String] = []

    @Option(
        name: .customLong("user-metadata"),
        help: ArgumentHelp(
            "User metadata (raw_user_meta_data) for the drafted signed-in personas, for a sign-up trigger that needs some: a JSON object for both, or ava=JSON / ben=JSON for one (repeatable; default: the keys the trigger reads, each persona its own value, said in a NOTE).",
            valueName: "JSON"))
    var userMetadata: [String] = []

    func validate() throws {
        try UserMetadataOptions.check(userMetadata)
    }

    func run() throws {
        try ErrorReporter.run {
            if let output, FileManager.default.fileExists(atPath: output) {
                throw ProjectInitError(path: output, reason: .exists)
            }
            // The project's hook and [api] settings when none are beside --output: the
            // project is the current folder (as the twin below is).
            let api = try ProjectAPISettings(nearPlan: output ?? "access-plan.yml", projectRoot: URL(fileURLWithPath: "."))
            guard let layout = try ProjectTwin.standIn(
                databaseURL: database.databaseURL, layout: { try ProjectOptions.parse([]).layout() }) else {
                return try draft(on: database.connect(), api: api)
            }
            // Standard output may be the plan: the twin's lines go to standard error.
            try ProjectTwin.run(layout, withPlan: false, noCache: false, progress: .onStandardError(), say: Terminal.note) {
                try draft(on: $0.provision(), api: api)
            }
        }
    }

    /// Drafts the plan on `connection` and writes it (--output, else standard output).
    private func draft(on connection: Connection, api: ProjectAPISettings) throws {
        var api = api
        // Schemas named with --schema must exist; config.toml's may not yet.
        if schema.isEmpty { api = try api.forDatabase(connection) } else { api.exposedSchemas = schema }
        let drafter = try PlanDrafter(connection: connection, api: api, userMetadata: userMetadata)
        let draft = try drafter.draft()  // messages about it name "the drafted plan", not a file that does not exist yet
        let summary = "plan draft: \(Self.count(draft.plan.relations.count, "relation")), \(Self.count(draft.plan.functions.count, "function")), "
            + "\(Self.count(draft.dangers, "cell")) marked DANGER, \(Self.count(draft.findings.dangers.count, "lint danger")) (pgwarden lint); "
            + (draft.verified ? "pgwarden test passes with it" : draft.ownRunFailures)
        // The file just written is never overwritten: the command says to remove it first.
        let notes = (draft.findings.metadataGuess?.lines ?? []) + draft.storagePolicies.unobservedLines(
            schemas: draft.plan.schemas, planFile: output.map { "\($0) (remove the one just written first)" } ?? "access-plan.yml")
        if let output {
            try draft.yaml.write(toFile: output, atomically: true, encoding: .utf8)
            print("wrote \(output)")
            print(([summary] + notes).joined(separator: "\n"))
        } else {
            print(draft.yaml, terminator: "")
            FileHandle.standardError.write(Data((([summary] + notes).joined(separator: "\n") + "\n").utf8))
        }
    }

    /// `1 relation`, `2 relations` (the library's own helper is not public API).
    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
