import Foundation
import Testing
@testable import WardenKit

/// `JSONText` writes claims and metadata itself (not through `JSONSerialization`,
/// which is slow on Linux); what it writes must read back as the same value, and for
/// keys that both sort alike, be the very text `JSONSerialization` writes.
@Suite struct JSONTextTests {
    static let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]

    static func foundation(_ value: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: value, options: options), as: UTF8.self)
    }

    static var everyControlCharacter: String {
        String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
    }

    nonisolated(unsafe) static let values: [Any] = [
        "plain",
        #"quote " backslash \ slash / "# + "tab\t",
        everyControlCharacter + "\u{7f}é€😀\u{2028}",
        "",
        true, false, 0, -42, 1_800_000_000,
        NSNull(),
        ["b": 1, "a": true, "app_metadata": ["provider": "email", "providers": ["email", "phone"]], "is_anonymous": false] as [String: Any],
        [["method": "password", "timestamp": 1_799_999_999]] as [Any],
        ["nested": [["x": NSNull()], [] as [Any], [:] as [String: Any]]] as [String: Any],
        JSONText.decode(#"{"n": 1, "b": true, "f": 1.5, "s": "x", "z": null, "a": [1, false, {"k": "v"}]}"#),
    ]

    @Test(arguments: values.indices)
    func sameTextAsJSONSerialization(_ index: Int) {
        let value = Self.values[index]
        #expect(JSONText.encode(value) == Self.foundation(value))
    }

    @Test func stringLiteralsQuoteAsJSONSerializationDoes() {
        for text in ["a", "it's \"q\"", Self.everyControlCharacter, "\\/"] {
            #expect(JSONText.quote(text) == Self.foundation(text))
        }
    }

    @Test func keysSortByUnicodeScalarsAndEachValueReadsBack() throws {
        let value: [String: Any] = ["b": 1, "B": 2, "_x": "y", "10": 3, "9": 4]
        let text = JSONText.encode(value)
        #expect(text == #"{"10":3,"9":4,"B":2,"_x":"y","b":1}"#)
        let back = try #require(JSONText.object(text))
        #expect(back["B"] as? Int == 2 && back["_x"] as? String == "y" && back["9"] as? Int == 4)
    }

    @Test func whatIsNotJSONIsNull() {
        #expect(JSONText.encode(Date()) == "null")
        #expect(JSONText.encode(["a": Date()] as [String: Any]) == "null")
    }
}
