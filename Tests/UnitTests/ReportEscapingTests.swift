import Testing
@testable import WardenKit
import TestSupport

/// Text from plans and servers cannot break a GitHub annotation or a Markdown table.
@Suite struct ReportEscapingTests {
    @Test func githubWorkflowCommandEscaping() {
        #expect(GitHubAnnotations.data("50% done\r\nnext: a, b") == "50%25 done%0D%0Anext: a, b")
        #expect(GitHubAnnotations.property("plans/a:b,c.yml") == "plans/a%3Ab%2Cc.yml")
    }

    @Test func markdownCellsEscapePipesAndLineBreaks() {
        #expect(MarkdownReport.cell("a | b\nc") == #"a \| b c"#)
    }
}
