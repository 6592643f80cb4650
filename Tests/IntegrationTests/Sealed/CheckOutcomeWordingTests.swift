import Testing
@testable import WardenKit
import WardenPostgres
import TestSupport

/// A failed check's line says what was expected, then what was observed, each once:
/// "expected SQLSTATE 42501; observed succeeded (1 row)", where the observed part
/// repeated the expectation ("observed succeeded, expected SQLSTATE 42501").
@Suite struct CheckOutcomeWordingTests {
    @Test func theObservedPartSaysOnlyWhatHappened() throws {
        let connection = try Connection(try TestCluster.newTwinDatabase("checkwording").project)
        let plan = try AccessPlanParser(file: "wording.yml").parse("""
            schemas: [public]
            personas:
              ava: { role: authenticated, email: ava.wording@example.com }
            checks:
              - name: a read that should be refused
                as: ava
                sql: "select 1"
                expect: { sqlstate: "42501" }
              - name: a division that should be refused
                as: ava
                sql: "select 1 / 0"
                expect: { sqlstate: "42501" }
            """)
        let report = try AccessPlanRunner(connection: connection, plan: plan).run()
        let observed = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.name, $0.observed) })
        #expect(observed.count == 2, "\(observed)")
        #expect(observed.values.contains("succeeded (1 row)"), "\(observed)")
        #expect(observed.values.contains("failed with 22012 (division by zero)"), "\(observed)")
    }
}
