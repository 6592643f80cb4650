import Testing
@testable import WardenKit

/// The plan's `# DANGER` marks and the storage owner test, read by scanning bytes
/// (issue 18): the same answers as before, and CRLF files numbered as YAML numbers them.
@Suite struct PlanTextScanTests {
    private let plan = """
        # DANGER (anon_security_definer_function_executable) public.leak(): anyone may call it
        personas:
          anon: { role: anon }
          ava: { role: authenticated, email: ava@example.com }
        relations:
          note:
            access:
              anon: read   # DANGER drafted from what the database allowed
              # DANGER a comment line of its own marks nothing
              ava: all
        """

    @Test func marksTheCellOnADangerLineAndNotACommentLine() throws {
        let parsed = try AccessPlanParser(file: "plan.yml").parse(plan)
        #expect(parsed.relations[0].dangerMarked == ["anon"])
        #expect(parsed.dangerMarkedFindings == ["anon_security_definer_function_executable public.leak()"])
        #expect(AccessPlanParser.dangerCommentLines(plan) == [8])
    }

    @Test func numbersTheLinesOfACRLFFileAsYAMLDoes() throws {
        let crlf = plan.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        // One `Character` each, "\r\n" was no line break to a split on "\n": the whole
        // file was line 1, and the cell's mark was lost.
        #expect(AccessPlanParser.dangerCommentLines(crlf) == [8])
        let parsed = try AccessPlanParser(file: "plan.yml").parse(crlf)
        #expect(parsed.relations[0].dangerMarked == ["anon"])
        #expect(parsed.dangerMarkedFindings == ["anon_security_definer_function_executable public.leak()"])
    }

    @Test func whitespaceBeforeTheMarkIsUnicodeWhitespace() {
        #expect(AccessPlanParser.dangerCommentLines("\u{00A0}\t# DANGER\nx: 1 # DANGER\n\n# DANGER") == [2])
        #expect(AccessPlanParser.dangerCommentLines("é # DANGER") == [1])
    }

    @Test func storageOwnerColumnIsNamedBareOnly() {
        let named: [(String, String, Bool)] = [
            ("owner_id", "owner_id = (select auth.uid()::text)", true),
            ("owner", "(select auth.uid()) = owner", true),
            ("owner_id", "o.owner_id = auth.uid()", false),  // another table's column
            ("owner_id", #""owner_id" = auth.uid()::text"#, false),
            ("owner", "owner_id = auth.uid()::text", false),
            ("owner_id", "owner_idx = 1 or owners = 2", false),
            ("owner", "éowner = 1", false),
            ("owner", "owner", true),
        ]
        for (column, expression, expected) in named {
            #expect(RelationProber.namesBareColumn(column, in: expression) == expected, "\(column) in \(expression)")
        }
    }
}
