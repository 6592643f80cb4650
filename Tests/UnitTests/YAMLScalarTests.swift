import Testing
import Yams
@testable import WardenKit

/// The plan is composed without Yams' implicit tag rules (`YAMLNodeReader.resolver`);
/// what pgwarden reads from scalars must be what it read with them: each reading is
/// made both ways.
@Suite struct YAMLScalarTests {
    private func scalar(_ yaml: String) throws -> Node {
        try #require(try Yams.compose(yaml: "v: \(yaml)", YAMLNodeReader.resolver)?.mapping?["v"])
    }

    private func withDefaultRules(_ yaml: String) throws -> Node {
        try #require(try Yams.compose(yaml: "v: \(yaml)")?.mapping?["v"])
    }

    @Test(arguments: ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"])
    func trueSpellings(_ spelling: String) throws {
        #expect(try scalar(spelling).bool == true)
        #expect(try withDefaultRules(spelling).bool == true)
    }

    @Test(arguments: ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"])
    func falseSpellings(_ spelling: String) throws {
        #expect(try scalar(spelling).bool == false)
        #expect(try withDefaultRules(spelling).bool == false)
    }

    @Test(arguments: ["tRUE", "'true'", "\"yes\"", "!!str true", "1", "0", "y", "yes please", "~", "", "0x1F", "null", "2.5"])
    func everyScalarReadsAlike(_ spelling: String) throws {
        let basic = try scalar(spelling), rules = try withDefaultRules(spelling)
        #expect(basic.bool == rules.bool)
        #expect(basic.int == rules.int)
        #expect((basic.null != nil) == (rules.null != nil))
        #expect(basic.string == rules.string)
        #expect(basic.scalar?.style == rules.scalar?.style)
    }

    @Test func metadataJSONReadsTheSameTypes() throws {
        let reader = YAMLNodeReader(file: "plan.yml")
        let node = try #require(try Yams.compose(
            yaml: "{ a: 1, b: yes, c: ~, d: '1', e: 0x1F, f: text, g: [1, off, null] }", YAMLNodeReader.resolver))
        #expect(try reader.json(node) == #"{"a":1,"b":true,"c":null,"d":"1","e":31,"f":"text","g":[1,false,null]}"#)
    }

    @Test func repeatedKeysAreStillRefused() {
        #expect(throws: YamlError.self) { try Yams.compose(yaml: "a: 1\na: 2\n", YAMLNodeReader.resolver) }
    }
}
