import Foundation

/// JSON text made by Foundation's `JSONSerialization` (keys sorted, so the same value
/// is always the same text): for JWT claims and `auth.users` metadata.
enum JSONText {
    /// A JSON string literal for `text`.
    static func quote(_ text: String) -> String { encode(text) }

    /// The JSON text of a Foundation value (`String`, `Bool`, `NSNumber`, arrays,
    /// `[String: Any]`, `NSNull`).
    static func encode(_ value: Any) -> String {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The Foundation value of JSON text that pgwarden made itself (an empty object
    /// when it is not JSON).
    static func decode(_ text: String) -> Any {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) ?? [String: Any]()
    }

    /// The object `text` holds, or nil when it is not a JSON object (for user input).
    static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
}
