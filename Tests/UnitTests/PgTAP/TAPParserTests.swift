import Foundation
import Testing
@testable import WardenKit

/// Reading pgTAP's output without a server: test lines, directives, diagnostics, plans.
@Suite struct TAPParserTests {
    private func outcome(_ rows: [(String, Int)]) -> PgTAPFileOutcome {
        var outcome = PgTAPFileOutcome(file: "t.sql")
        for (text, line) in rows { outcome.tap.read(text, line: line) }
        return outcome
    }

    @Test func readsOkNotOkDiagnosticsAndDirectives() {
        let suite = outcome([
            ("1..4", 2),
            ("ok 1 - a \\# b", 3),
            ("not ok 2 - wrong\n# Failed test 2: \"wrong\"\n#         have: 1\n#         want: 2", 4),
            ("not ok 3 - wish # TODO not yet", 5),
            ("ok 4 # SKIP no storage", 6),
        ]).suite
        #expect(suite.cases.map(\.status) == [.passed, .failed, .todo, .skipped])
        #expect(suite.cases[0].description == "a # b")
        #expect(suite.cases[1].name == "2 - wrong")
        #expect(suite.cases[1].line == 4)
        #expect(suite.cases[1].diagnostics == ["Failed test 2: \"wrong\"", "have: 1", "want: 2"])
        #expect(suite.cases[2].reason == "not yet")
        #expect(suite.cases[3].reason == "no storage")
        #expect(suite.failures.count == 1)
    }

    @Test func aPlanThatDoesNotMatchFailsTheFileAtThePlanLine() {
        let suite = outcome([("1..3", 2), ("ok 1 - one", 3), ("ok 2 - two", 4)]).suite
        #expect(!suite.passed)
        #expect(suite.failures.map(\.description) == ["plan: planned 3 tests but ran 2"])
        #expect(suite.failures.first?.line == 2)
    }

    @Test func noPlanFailsAndAMatchingPlanAtTheEndPasses() {
        #expect(outcome([("ok 1 - one", 3)]).suite.failures.first?.description.hasPrefix("no plan") == true)
        let noPlan = outcome([("ok 1 - one", 3), ("ok 2", 4), ("1..2", 5)]).suite
        #expect(noPlan.passed)
        #expect(noPlan.cases.map(\.name) == ["1 - one", "2"])
    }

    /// Plain SQL checks in the tests folder (`do $$ ... raise ... $$`, a real project's 33
    /// files): they ran without an error and printed no TAP, and each said only "no plan".
    @Test func aFileThatPrintedNoTAPAtAllIsSaidNotToBePgTAP() {
        let plain = outcome([("okay then", 2)]).suite.failures.first?.description ?? ""
        #expect(plain.hasPrefix("no plan: the file ran without an error but printed no TAP at all: it is not a pgTAP test"), "\(plain)")
        let forgotten = outcome([("ok 1 - one", 3)]).suite.failures.first?.description ?? ""
        #expect(forgotten == "no plan: the file never printed `1..N` (call plan(N) or no_plan() and finish())", "\(forgotten)")
    }

    @Test func otherRowsAreIgnoredAndBailOutFails() {
        let suite = outcome([("1..1", 1), ("okay then", 2), ("42|x", 2), ("ok 1 - fine", 3), ("Bail out! no db", 4)]).suite
        #expect(suite.cases.count == 2)
        #expect(suite.failures.map(\.description) == ["Bail out! no db"])
    }

    @Test func aSQLErrorFailsTheFileAndNamesTheLine() {
        var outcome = outcome([("1..2", 1), ("ok 1 - fine", 2)])
        outcome.stop = .init(line: 7, message: "42P01: relation \"x\" does not exist")
        #expect(outcome.suite.failures.map(\.description) == ["SQL error at line 7: 42P01: relation \"x\" does not exist"])
        #expect(outcome.suite.failures.map(\.line) == [7])
    }
}

/// Cutting test files into what pgwarden sends.
@Suite struct PgTAPScriptTests {
    @Test func beginRollbackBecomesABlockAndIsNotSent() throws {
        let script = try PgTAPScript(file: "t.sql", text: "-- c\nbegin;\nselect plan(1);\nselect pass('x');\nrollback;\n")
        #expect(script.blocks.count == 1)
        #expect(script.blocks[0].ending == .rollback)
        #expect(script.blocks[0].statements.map(\.line) == [3, 4])
        #expect(script.blocks[0].statements.map(\.text) == ["select plan(1);", "select pass('x');"])
    }

    @Test func looseStatementsAndCommittedBlocksKeepTheirOrder() throws {
        let script = try PgTAPScript(
            file: "t.sql", text: "select 1;\nstart transaction;\nselect 2;\ncommit;\nselect 3;\nbegin;\nselect 4;\n")
        #expect(script.blocks.map(\.ending) == [.none, .commit, .none, .rollback])
        #expect(script.statementCount == 4)
    }

    /// psql's autocommit makes a COMMIT or ROLLBACK with no BEGIN a no-op (the server
    /// warns): a setup file in the pgtap-extended style ends in ROLLBACK with no BEGIN.
    @Test func aCommitOrRollbackWithNoBeginIsSkippedAsUnderPsql() throws {
        let script = try PgTAPScript(file: "t.sql", text: "select 1;\ncommit;\nselect 2;\nrollback;\n")
        #expect(script.blocks.map(\.ending) == [.none])
        #expect(script.blocks[0].statements.map(\.text) == ["select 1;", "select 2;"])
    }

    /// psql stops reading a file at `\q`, alone or after another command on its line
    /// (an extension script's first line), and not at one inside quotes.
    @Test func aQuitEndsTheFile() throws {
        let quit = try PgTAPScript(file: "t.sql", text: "select 1;\n\\q\nselect 2;\n")
        #expect(quit.blocks.flatMap(\.statements).map(\.text) == ["select 1;"])
        let echoed = try PgTAPScript(
            file: "t.sql", text: "\\echo Use \"CREATE EXTENSION x\" to load this file. \\quit\nselect 2;\n")
        #expect(echoed.statementCount == 0)
        let quoted = try PgTAPScript(file: "t.sql", text: "\\echo 'not \\q here'\nselect 2;\n")
        #expect(quoted.blocks.flatMap(\.statements).map(\.text) == ["select 2;"])
    }

    @Test(arguments: [
        ("begin;\nselect 1;\n\nbegin;\n", 4, "BEGIN inside BEGIN"),
        ("select 1;\nprepare transaction 'x';\n", 2, "two-phase commit"),
        ("copy t from stdin;\n1\n\\.\n", 1, "COPY FROM STDIN"),
    ])
    func transactionControlInTheWrongPlaceIsRefusedWithItsLine(_ text: String, _ line: Int, _ words: String) {
        #expect {
            try PgTAPScript(file: "dir/t.sql", text: text)
        } throws: { error in
            guard case .refused(let file, let refusedLine, let reason) = error as? PgTAPError else { return false }
            return file == "dir/t.sql" && refusedLine == line && reason.contains(words)
        }
    }

    @Test func harmlessPsqlMetaCommandsAreSkippedAndOthersRefused() throws {
        let script = try PgTAPScript(
            file: "t.sql", text: "\\set ON_ERROR_STOP 1\n\\pset format unaligned\nbegin;\nselect 'a\\b';\nrollback;\n")
        #expect(script.blocks.count == 1)
        #expect(script.blocks[0].statements.map(\.text) == ["select 'a\\b';"])
        #expect(script.blocks[0].statements.map(\.line) == [4])
        #expect(throws: PgTAPError.refused(
            file: "t.sql", line: 2,
            reason: "'\\c other' is a psql meta-command that pgwarden does not run (it sends SQL only)")
        ) {
            try PgTAPScript(file: "t.sql", text: "select 1;\n\\c other\nselect 2;\n")
        }
        #expect(throws: PgTAPError.refused(
            file: "t.sql", line: 1,
            reason: "'\\set id `psql -c \\'select 1\\'`' runs a shell command (backquotes), which pgwarden does not "
                + "(it runs no shell); write the value in the file")
        ) {
            try PgTAPScript(file: "t.sql", text: "\\set id `psql -c \\'select 1\\'`\nselect :id;\n")
        }
    }

    @Test func includePathsAreReadAsPsqlReadsThem() throws {
        let include = try #require(try PsqlMetaCommands.include("\\ir  'it''s here.sql' extra", file: "t.sql", line: 3, offset: 0))
        #expect(include.path == "it's here.sql" && include.relative)
        #expect(try PsqlMetaCommands.include("\\include_relative x.sql", file: "t.sql", line: 1, offset: 0)?.relative == true)
        #expect(try PsqlMetaCommands.include("\\i x.sql", file: "t.sql", line: 1, offset: 0)?.relative == false)
        #expect(try PsqlMetaCommands.include("\\if x", file: "t.sql", line: 1, offset: 0) == nil)
        #expect(throws: PgTAPError.refused(file: "t.sql", line: 4, reason: "'\\i' names no file to include")) {
            try PsqlMetaCommands.include("\\i", file: "t.sql", line: 4, offset: 0)
        }
        #expect(PsqlIncludes.join("supabase/tests/sub", "../_shared/./h.sql") == "supabase/tests/_shared/h.sql")
        #expect(PsqlIncludes.join("", "../h.sql") == "../h.sql")
        #expect(PsqlIncludes.join("supabase/tests", "/abs/h.sql") == "/abs/h.sql")
    }

    @Test func theSuiteFindsSQLAndPgFilesRecursivelyInNameOrder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("suite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("supabase/tests")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("b"), withIntermediateDirectories: true)
        for name in ["b/2.pg", "a.sql", "B.sql", "notes.md", "b/1.sql"] {
            try "select 1;".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let suite = try PgTAPSuite(folder: folder.path)
        #expect(suite.files == ["B.sql", "a.sql", "b/1.sql", "b/2.pg"].map { folder.path + "/" + $0 })
        #expect(PgTAPSuite.discover(in: root.path) == folder.path)
        #expect(PgTAPSuite.discover(in: folder.path) == nil)
    }
}
