import ArgumentParser
import WardenKit

/// `--seeds DIR`: the folder of seed files.
struct SeedsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("The folder of seed files (*.sql, applied in name order).", valueName: "DIR"),
        completion: .directory)
    var seeds = "seeds"
}

/// `--plan FILE`: the access-plan file.
struct PlanOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The access-plan file.", valueName: "FILE"), completion: .file(extensions: ["yml", "yaml"]))
    var plan = "access-plan.yml"
}
