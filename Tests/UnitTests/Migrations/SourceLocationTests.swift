import Testing
import WardenKit
import TestSupport

@Suite struct SourceLocationTests {
    @Test func mapsOffsetsToLinesAndColumns() {
        let source = SourceText("ab\ncdé\n\nx")
        #expect(source.location(ofOffset: 0) == SourceLocation(line: 1, column: 1))
        #expect(source.location(ofOffset: 2) == SourceLocation(line: 1, column: 3))
        #expect(source.location(ofOffset: 3) == SourceLocation(line: 2, column: 1))
        #expect(source.location(ofOffset: 5) == SourceLocation(line: 2, column: 3))  // é is one character
        #expect(source.location(ofOffset: 7) == SourceLocation(line: 3, column: 1))
        #expect(source.location(ofOffset: 8) == SourceLocation(line: 4, column: 1))
        #expect(source.location(ofOffset: 99) == SourceLocation(line: 4, column: 2))  // clamped
        #expect(source.lineCount == 4)
    }

    @Test func returnsLinesAndRanges() {
        let source = SourceText("first\nsecond\n")
        #expect(source.line(1) == "first")
        #expect(source.line(2) == "second")
        #expect(source.line(3) == "")
        #expect(source.line(0) == "")
        #expect(source.lineCount == 2)
        #expect(source.text(6..<12) == "second")
    }

    @Test func drawsACaretUnderTheColumnKeepingTabs() {
        #expect(SourceExcerpt.line(12, "create tabel foo (") == "   12 | create tabel foo (")
        #expect(SourceExcerpt.caret(under: "create tabel foo (", column: 8) == "      |        ^")
        #expect(SourceExcerpt.caret(under: "\tselect x", column: 9) == "      | \t       ^")
        #expect(SourceExcerpt.caret(under: "ab", column: 4) == "      |    ^")
    }
}
