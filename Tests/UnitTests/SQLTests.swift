import Testing
@testable import WardenKit
import TestSupport

@Suite struct SQLTests {
    @Test func interpolatedValuesAreBoundNeverSpliced() {
        let name = "x'); drop table t; --"
        let sql: SQL = "select * from \(identifier: "my \"t\"") where a = \(name) and b = \(42) and c = \(nil as String?)"
        #expect(sql.text == #"select * from "my ""t""" where a = $1 and b = $2 and c = $3"#)
        #expect(sql.bindings == [name, "42", nil])
    }

    @Test func fragmentsAreRenumbered() {
        let inner: SQL = "x = \("a") or y = \("b")"
        let outer: SQL = "select \(1) where \(inner) and z = \(true)"
        #expect(outer.text == "select $1 where x = $2 or y = $3 and z = $4")
        #expect(outer.bindings == ["1", "a", "b", "true"])
        var joined = SQL.joined(["a = \(1)", "b = \(2)"], separator: " and ")
        joined.append(" or c = \(3)")
        #expect(joined.text == "a = $1 and b = $2 or c = $3")
    }

    /// Issue 19: values sit beside the text as structure; appending a fragment never
    /// rewrites a literal that looks like a placeholder.
    @Test func appendingNeverRewritesALiteral() {
        var sql: SQL = "select \(1) as n"
        sql.append(SQL(raw: ", 'costs $1' as label, $q$ $2 $q$ as other where true"))
        sql.append(" and m = \(2)")
        #expect(sql.text == "select $1 as n, 'costs $1' as label, $q$ $2 $q$ as other where true and m = $2")
        #expect(sql.bindings == ["1", "2"])
    }

    @Test func literalsAndArrays() {
        #expect(SQL.quoteLiteral("it's") == "'it''s'")
        #expect(SQL.quoteLiteral(#"a\b"#) == #" E'a\\b'"#)
        #expect(SQL.quoteLiteral("plain") == "'plain'")
        #expect(SQL.quoteLiteral(#"it's a\b"#) == #" E'it''s a\\b'"#)
        #expect(SQL.quoteIdentifier("plain") == #""plain""#)
        #expect(SQL.quoteIdentifier(#"a"b""#) == #""a""b""""#)
        #expect(SQL.quoteIdentifier("") == #""""#)
        let sql: SQL = "select \(array: ["a", "b\"c", #"d\e"#])::text[]"
        #expect(sql.bindings == [#"{"a","b\"c","d\\e"}"#])
    }
}

@Suite struct StatementKindTests {
    func kind(_ text: String) -> StatementKind { StatementSplitter.split(text).first?.kind ?? .other }

    @Test func transactionControlIsFoundBehindComments() {
        #expect(kind("rollback /* to */;") == .rollback)
        #expect(kind("rollback -- to savepoint x\n;") == .rollback)
        #expect(kind("ROLLBACK TO SAVEPOINT a") == .savepoint)
        #expect(kind("/* hi */ COMMIT") == .commit)
        #expect(kind("end;") == .commit)
        #expect(kind("start transaction isolation level serializable") == .begin)
        #expect(kind("begin;") == .begin)
        #expect(kind("prepare transaction 'x'") == .twoPhase)
        #expect(kind("commit prepared 'x'") == .twoPhase)
        #expect(kind("prepare q as select 1") == .other)
        #expect(kind("release savepoint a") == .savepoint)
    }

    @Test func sessionChanges() {
        #expect(kind("set role authenticated") == .roleChange)
        #expect(kind("set local role anon") == .roleChange)
        #expect(kind("reset role") == .roleChange)
        #expect(kind("set session authorization bob") == .roleChange)
        #expect(kind("set session session authorization bob") == .roleChange)
        #expect(kind("reset session authorization") == .roleChange)
        #expect(kind("reset all") == .sessionReset)
        #expect(kind("discard all") == .sessionReset)
        #expect(kind("set search_path = public") == .sessionSetting)
        #expect(kind("set session statement_timeout = 0") == .sessionSetting)
        #expect(kind("set local statement_timeout = 0") == .transactionSetting)
        #expect(kind("set transaction read only") == .transactionSetting)
        #expect(kind("call my_proc()") == .call)
        #expect(kind("copy t (a) from stdin;") == .copyFromStdin)
        #expect(kind("copy t to stdout") == .other)
        #expect(kind("select 'commit'") == .other)
        #expect(kind("create function f() returns int begin atomic select 1; end") == .other)
    }
}
