import Testing
import WardenKit
import TestSupport

@Suite struct MigrationVersionTests {
    @Test func acceptsDigitsOnly() {
        #expect(MigrationVersion("20261121000100") != nil)
        #expect(MigrationVersion("0") != nil)
        #expect(MigrationVersion("") == nil)
        #expect(MigrationVersion("12a") == nil)
        #expect(MigrationVersion("-1") == nil)
        #expect(MigrationVersion(" 1") == nil)
        #expect(MigrationVersion("١٢") == nil)  // non-ASCII digits
    }

    @Test func comparesNumericallyAndIgnoresLeadingZeros() throws {
        let one = try #require(MigrationVersion("0001"))
        #expect(one == MigrationVersion("1"))
        #expect(Set([one, try #require(MigrationVersion("1"))]).count == 1)
        #expect(try #require(MigrationVersion("9")) < #require(MigrationVersion("10")))
        #expect(try #require(MigrationVersion("010")) > #require(MigrationVersion("9")))
        #expect(try #require(MigrationVersion("000")) == #require(MigrationVersion("0")))
        #expect(one.text == "0001")
    }

    @Test func sortsLongVersionsNumerically() {
        let texts = ["20261121000100", "3", "100", "20", "0999"]
        let sorted = texts.compactMap(MigrationVersion.init).sorted().map(\.text)
        #expect(sorted == ["3", "20", "100", "0999", "20261121000100"])
    }
}
