import Foundation
import Testing
import TestSupport
import WardenKit

/// The statement splitter against PostgreSQL's own parser (libpg_query, through PyPI's
/// pglast, which `scripts/test.sh` installs): a generated corpus of tricky statements, and every
/// SQL file of this repository, must be cut where the parser cuts them, into pieces of
/// the kinds the parser sees. A disagreement fails the test (Tests/Differential/split_check.py).
@Suite struct SplitterDifferentialTests {
    /// Statements that are hard to cut: keywords as names, BEGIN ATOMIC bodies, quotes
    /// of every kind, comments, transaction control and settings.
    static let fragments: [String] = [
        "select 1;",
        "create function pg_temp.f(begin int) returns int language sql return begin;",
        "commit;",
        "begin;",
        "start transaction isolation level serializable;",
        "end;",
        "abort;",
        "rollback to savepoint s;",
        "rollback;",
        "savepoint s;",
        "release s;",
        "prepare transaction 'x';",
        "commit prepared 'x';",
        "delete from public.saved;",
        "create function g(x int) returns int language sql begin atomic select (case when x > 0 then 1 else 0 end); end;",
        "create or replace procedure p(\"case\" int) language sql begin atomic insert into t values (1); select case when true then (case when false then 2 end) end; end;",
        "create function h() returns text language sql begin atomic select 'end;' /* end; */; end;",
        "create function k() returns int language sql begin atomic select t.end from (select 1 as end) t; end;",
        "create function m(begin int, atomic int) returns int language sql return begin + atomic;",
        "create function n() returns int language plpgsql as $$ begin return 1; end; $$;",
        "create function o() returns text as $body$ select 'a;$$;b' $body$ language sql;",
        "select E'it\\'s; still', 'C:\\';",
        "select $tag$ ; $notag$ ; $tag$, \"we;ird\"\"x\";",
        "/* outer /* inner; */ still; */ select 2;",
        "select 3 -- trailing; comment\n;",
        "set local role authenticated;",
        "set role anon;",
        "reset role;",
        "set session authorization postgres;",
        "set search_path = public;",
        "set local search_path = nowhere;",
        "set transaction read only;",
        "set constraints all deferred;",
        "reset all;",
        "discard all;",
        "call p(1);",
        "copy t from stdin;",
        "copy t (a, b) from stdin with (format csv);",
        "copy t to stdout;",
        "select set_config('request.jwt.claims', '{}', true);",
        "create table \"begin\" (\"end\" int, atomic int, \"case\" text);",
        "select begin, atomic from \"begin\";",
        "create rule r as on insert to t do also (insert into u values (1); insert into u values (2));",
        "do $$ begin commit; end $$;",
        "select case when true then 'begin atomic' else 'end' end;",
    ]

    /// Every fragment alone, every ordered pair, and runs of three. The lines after a
    /// `COPY ... FROM STDIN` are its data rows (as psql reads a script), which no SQL
    /// parser reads: such a COPY comes last.
    static func corpus() -> [String] {
        var texts = fragments
        let leading = fragments.filter { !$0.contains("from stdin") }
        for first in leading { for second in fragments { texts.append(first + "\n" + second) } }
        for (index, first) in leading.enumerated() {
            texts.append([first, leading[(index + 7) % leading.count], fragments[(index + 13) % fragments.count]]
                .joined(separator: " "))
        }
        return texts
    }

    /// This repository's own SQL files (migrations, seeds, examples, fixtures), except
    /// those with COPY data rows, which are no SQL.
    static func repositoryFiles() -> [String] {
        let root = PackagePaths.root
        let folders = ["migrations", "seeds", "examples", "Tests/IntegrationTests/Fixtures"]
        return folders.flatMap { folder -> [String] in
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".sql") && !$0.contains(".build") }
                .compactMap { try? String(contentsOf: root.appendingPathComponent(folder).appendingPathComponent($0), encoding: .utf8) }
                .filter { !$0.lowercased().contains("from stdin") }
        }
    }

    @Test func theSplitterCutsWhereThePostgreSQLParserCuts() throws {
        let texts = Self.corpus() + Self.repositoryFiles()
        #expect(Self.repositoryFiles().count > 10)
        let cases = texts.map { sql -> [String: Any] in
            let pieces = StatementSplitter.split(sql).map { ["text": $0.text, "kind": String(describing: $0.kind)] }
            return ["sql": sql, "pieces": pieces]
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("pgwarden-split-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try JSONSerialization.data(withJSONObject: cases).write(to: input)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PackagePaths.root.appendingPathComponent("Tests/Differential/split_check.py").path, input.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExitPromptly()
        #expect(process.terminationStatus == 0, "the splitter disagrees with PostgreSQL's parser (pglast):\n\(report.prefix(6000))")
        #expect(report.contains("\(texts.count) texts, 0 disagreements"))
    }
}
