import ArgumentParser
import WardenKit

/// `--seeds DIR`: the folder of seed files.
struct SeedsOptions: ParsableArguments {
    @Option(
        name: .customLong("seeds"),
        help: ArgumentHelp("The folder of seed files (*.sql, applied in name order).", valueName: "DIR"),
        completion: .directory)
    var folder = "seeds"
}

/// `--plan FILE`: the access-plan file.
struct PlanOptions: ParsableArguments {
    static let defaultFile = "access-plan.yml"

    @Option(
        name: .customLong("plan"), help: ArgumentHelp("The access-plan file.", valueName: "FILE"),
        completion: .file(extensions: ["yml", "yaml"]))
    var file = PlanOptions.defaultFile
}
