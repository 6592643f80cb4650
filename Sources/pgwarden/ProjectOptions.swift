import ArgumentParser
import WardenKit

/// `--seeds` and `--plan`: the project's other files (with `MigrationsOptions`).
struct ProjectOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The folder of seed files (*.sql, applied in name order).", valueName: "DIR"))
    var seeds = "seeds"

    @Option(help: ArgumentHelp("The access-plan file.", valueName: "FILE"))
    var plan = "access-plan.yml"

    func paths(migrations: MigrationsOptions) -> ProjectPaths {
        ProjectPaths(migrations: migrations.folder, seeds: seeds, plan: plan)
    }
}
