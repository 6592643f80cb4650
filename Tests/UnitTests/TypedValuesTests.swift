import Testing
@testable import WardenKit

/// Results are typed values: enums for scopes, commands and states, `Duration` for times.
@Suite struct TypedValuesTests {
    @Test func theNoRowScopeIsNothingInSwiftAndNoneInAPlan() throws {
        #expect(Scope(rawValue: "none") == .nothing)
        #expect(Scope.nothing.rawValue == "none")
        let optional: Scope? = .nothing
        #expect(optional != nil)
        let plan = try AccessPlanParser(file: "p.yml").parse("""
            personas:
              anon: { role: anon }
            relations:
              note:
                access: { anon: read }
            """)
        #expect(plan.relations.first?.access["anon"]?.select == .all)
        #expect(plan.relations.first?.access["anon"]?.insert == .nothing)
    }

    @Test func aRunSaysWhichCommandItWasAndHowLongItsStepsTook() {
        #expect(MigrationRun(command: .up, dryRun: false).summary == "nothing to do: no pending migrations")
        #expect(MigrationRun(command: .down, dryRun: false).summary == "nothing to do: no applied migrations to roll back")
        let step = MigrationRun.Step(version: "1", name: "a", direction: .up, duration: .milliseconds(12))
        #expect(MigrationRun.line(for: step, dryRun: false) == "applied 1 a (12 ms)")
        #expect(MigrationRun.duration(.microseconds(300)) == "<1 ms")
        let run = MigrationRun(command: .redo, dryRun: false, steps: [step, step])
        #expect(run.summary == "applied 2 migrations in 24 ms")
    }

    @Test func aRefusalCarriesTheMigrationStateNotAString() {
        #expect(MigrationRefusal.notFailed(version: "1", state: .pending).description.contains("never applied"))
        #expect(MigrationRefusal.notFailed(version: "1", state: .applied).description.contains("it finished"))
    }
}
