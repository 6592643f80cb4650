import Foundation
import Testing
import WardenKit
import TestSupport

/// Plan SQL that would end the run's transaction, touch its savepoints, change who the
/// runner is or set session settings is a plan error on its own line; hostile YAML is
/// refused quickly.
@Suite struct SealedPlanParserTests {
    private let head = """
        personas:
          anon: { role: anon }
          ava: { role: authenticated, email: ava@example.com }
        """

    private func mistake(_ text: String) -> AccessPlanError? {
        do {
            _ = try AccessPlanParser(file: "plan.yml").parse(text)
            return nil
        } catch let error as AccessPlanError {
            return error
        } catch {
            return AccessPlanError(file: "?", line: nil, message: "unexpected \(error)")
        }
    }

    private static let refused: [(sql: String, label: String)] = [
        ("commit", "COMMIT"), ("COMMIT AND CHAIN", "COMMIT"), ("end", "COMMIT"), ("begin", "BEGIN"),
        ("start transaction", "BEGIN"), ("rollback", "ROLLBACK"), ("abort", "ROLLBACK"),
        ("prepare transaction 'x'", "two-phase"), ("savepoint a", "SAVEPOINT"), ("release a", "SAVEPOINT"),
        ("rollback to savepoint a", "SAVEPOINT"), ("set role authenticated", "role change"),
        ("reset role", "role change"), ("set session authorization anon", "role change"),
        ("set session role anon", "role change"), ("reset all", "RESET ALL"), ("discard all", "DISCARD"),
        ("set search_path = public", "SET without LOCAL"), ("set session statement_timeout = 0", "SET without LOCAL"),
        ("call public.commit_things()", "CALL"), ("copy public.note from stdin", "COPY"),
    ]

    @Test(arguments: refused)
    func refusesInSetup(_ entry: (sql: String, label: String)) throws {
        let text = head + "\nsetup:\n  - select 1\n  - |\n    select 2;\n    /* c */ \(entry.sql);\n"
        let error = try #require(mistake(text))
        #expect(error.line == 8, "\(entry.sql): \(error)")
        #expect(error.message.contains(entry.label), "\(entry.sql): \(error.message)")
    }

    @Test func refusesInEveryPlaceSQLRuns() throws {
        let relation = "relations:\n  note:\n    sample: { body: \"'x'\" }\n    access: { anon: none }\n"
        let cases: [(text: String, line: Int)] = [
            (head + "\n" + relation + "    before_insert: delete from note; commit\n", 8),
            (head + "\nchecks:\n  - name: c\n    as: anon\n    sql: commit\n    expect: { row_count: 0 }\n", 7),
            (head + "\nchecks:\n  - name: c\n    as: anon\n    before: set role postgres\n    sql: select 1\n    expect: { value: '1' }\n", 7),
            (head + "\nchecks:\n  - name: c\n    as: anon\n    sql: select 1\n    verify: |\n      select true;\n      rollback\n", 10),
            (head + "\nchecks:\n  - name: c\n    as: anon\n    sql: select 1\n    expect: { rows_equal: reset all }\n", 8),
        ]
        for (text, line) in cases {
            let error = try #require(mistake(text), "\(text)")
            #expect(error.line == line, "\(text)\n\(error)")
        }
    }

    @Test func allowsTransactionLocalSettingsAndQuotedKeywords() throws {
        let text = head + """

            setup:
              - set local search_path = public, auth; set constraints all deferred
              - select 'commit; set role x' /* rollback; */ -- begin
              - do $$ begin perform 1; end $$
            """
        #expect(mistake(text) == nil)
    }

    @Test func refusesStatementsWhereAnExpressionBelongs() throws {
        let text = head + "\nrelations:\n  note:\n    owner: true); commit; select (true\n    sample: { body: \"'x'\" }\n    access: { anon: none }\n"
        let error = try #require(mistake(text))
        #expect(error.line == 6)
        #expect(error.message.contains("one SQL expression"))
    }

    @Test func refusesAnAliasBombQuickly() throws {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        text += head + "\n"
        let started = ContinuousClock.now
        let error = try #require(mistake(text))
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(error.message.contains("more than 100000 YAML nodes"))
    }

    @Test func refusesDeepNestingAndHugePlans() throws {
        let deep = try #require(mistake(String(repeating: "[", count: 100_000)))
        #expect(deep.message.contains("nested"))
        let huge = try #require(mistake(head + "\n#" + String(repeating: "x", count: 2 << 20) + "\n"))
        #expect(huge.message.contains("bytes"))
    }
}
