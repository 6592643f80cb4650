import Testing
import WardenKit
import TestSupport

@Suite struct StatementSplitterTests {
    func texts(_ sql: String) -> [String] { StatementSplitter.split(sql).map(\.text) }

    @Test func splitsOnSemicolonsAndKeepsThem() {
        #expect(texts("create table a (id int);\ninsert into a values (1);") == [
            "create table a (id int);", "insert into a values (1);",
        ])
        #expect(texts("select 1; select 2") == ["select 1;", "select 2"])
    }

    @Test func skipsCommentsAndEmptyStatements() {
        #expect(texts("-- only a comment\n/* and a block */\n").isEmpty)
        #expect(texts(";;\n ; ").isEmpty)
        #expect(texts("-- leading\nselect 1; -- trailing ; comment\n") == ["select 1;"])
    }

    @Test func ignoresSemicolonsInStringsAndIdentifiers() {
        #expect(texts("select 'a;b', 'it''s;'; select 2;").count == 2)
        #expect(texts(#"create table "we;ird" (id int); select 1;"#).count == 2)
        #expect(texts(#"select "a""b;c"; select 1;"#).count == 2)
    }

    @Test func handlesEscapeStrings() {
        // In E'...' a backslash escapes the quote; in a standard string it does not.
        #expect(texts(#"select E'it\'s; still'; select 2;"#).count == 2)
        #expect(texts(#"select 'C:\'; select 2;"#).count == 2)
        #expect(texts(#"select e'\\'; select 2;"#).count == 2)
    }

    @Test func handlesDollarQuotes() {
        let function = """
            create function f() returns int language plpgsql as $$
            begin
              perform 1; return 1;
            end
            $$;
            create function g() returns text as $body$ select 'a;$$;b' $body$ language sql;
            select $1;
            """
        let statements = texts(function)
        #expect(statements.count == 3)
        #expect(statements[0].hasSuffix("$$;"))
        #expect(statements[2] == "select $1;")
        #expect(texts("select a$b$c; select 2;").count == 2)  // $ inside an identifier is no quote
    }

    @Test func handlesNestedBlockComments() {
        #expect(texts("/* outer /* inner; */ still comment; */ select 1; select 2;") == ["select 1;", "select 2;"])
    }

    @Test func keepsParenthesesAndBeginAtomicTogether() {
        let atomic = """
            create or replace function add(a int, b int) returns int language sql
            begin atomic
              select a + b;
              select case when a > 0 then 1 else 0 end;
            end;
            select 1;
            """
        #expect(texts(atomic).count == 2)
        #expect(texts("create rule r as on insert to t do also (insert into u values (1); insert into u values (2)); select 1;").count == 2)
        // BEGIN as a transaction statement is a statement of its own.
        #expect(texts("begin; select 1; commit;").count == 3)
    }

    /// The cases of issue 15: the server, not psql's heuristic, decides where a
    /// `BEGIN ATOMIC` body ends (`SplitterDifferentialTests`
    /// checks these against PostgreSQL's own parser).
    @Test func beginAtomicBodiesEndWhereTheServerEndsThem() {
        // BEGIN as a parameter name and as a returned value opens no body.
        #expect(texts("create function pg_temp.f(begin int) returns int language sql return begin;\ncommit;\ndelete from t")
            == ["create function pg_temp.f(begin int) returns int language sql return begin;", "commit;", "delete from t"])
        // CASE inside parentheses, nested CASE, and END in strings, comments and names.
        let body = """
            create function g(x int) returns int language sql
            begin atomic
              select (case when x > 0 then (case when x > 1 then 2 else 1 end) else 0 end);
              select 'end;' /* end; */ -- end;
                ;
              select t.end, 1 as case from (select 1 as "end") t;
            end;
            select 2;
            """
        #expect(texts(body).count == 2)
        #expect(texts("begin atomic select 1; end;").count == 2)  // not in a routine definition
        #expect(texts("create procedure p() begin atomic insert into t values (1); end; call p();").count == 2)
        #expect(texts("create function f() returns int language sql return case when true then 1 end; select 1;").count == 2)
        #expect(texts("create function f(case_ int) returns int begin atomic; end; select 1;").count == 2)
    }

    @Test func reportsScalarOffsets() {
        let statements = StatementSplitter.split("-- é\nselect 'ü';\n  select 2;")
        #expect(statements.map(\.range) == [5..<16, 19..<28])
    }

    @Test func findsTheFirstDollarQuoteBody() {
        let scalars = Array("do -- $x$ not here\n'$y$' $fn$\nbegin".unicodeScalars)
        let body = StatementSplitter.firstDollarQuoteBody(in: scalars)
        #expect(body == 29)
        #expect(StatementSplitter.firstDollarQuoteBody(in: Array("select 1".unicodeScalars)) == nil)
    }
}
