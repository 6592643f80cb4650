import ArgumentParser
import WardenKit

/// `--to VERSION`, `resolve VERSION`: the argument parser checks the digits, so a bad
/// version is a usage error (exit 64) before anything runs.
extension MigrationVersion: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
