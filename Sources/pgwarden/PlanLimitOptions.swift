import ArgumentParser
import WardenKit

/// `--plan-lock-timeout` and `--plan-statement-timeout`: how long the access-plan run
/// may wait for a lock and how long one statement may take (exit 75 past either).
struct PlanLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("plan-lock-timeout"),
        help: ArgumentHelp(
            "Seconds any statement of the run waits for a lock another session holds (a migration, VACUUM FULL, "
                + "LOCK TABLE); then the run is rolled back, naming the blocking session (exit 75).",
            valueName: "SECONDS"))
    var lockTimeout = 10.0

    @Option(
        name: .customLong("plan-statement-timeout"),
        help: ArgumentHelp(
            "Seconds one statement of the run (a probe, a check) may take; then the run is rolled back (exit 75). "
                + "A persona role's own, shorter statement_timeout still applies, as PostgREST applies it.",
            valueName: "SECONDS"))
    var statementTimeout = 30.0

    func validate() throws {
        for (name, value) in [("--plan-lock-timeout", lockTimeout), ("--plan-statement-timeout", statementTimeout)]
        where !(0.001...86_400).contains(value) {
            throw ValidationError("\(name) must be between 0.001 and 86400 seconds")
        }
    }

    /// The library's limits from these options.
    var limits: AccessPlanLimits {
        AccessPlanLimits(
            lockTimeout: .milliseconds(Int((lockTimeout * 1000).rounded())),
            statementTimeout: .milliseconds(Int((statementTimeout * 1000).rounded())))
    }
}
