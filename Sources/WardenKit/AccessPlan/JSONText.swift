import Foundation

/// JSON text for JWT claims and `auth.users` metadata, keys sorted (by Unicode
/// scalar, as Swift compares strings), so the same value is always the same text.
///
/// Written here for the values pgwarden builds itself (`String`, `Bool`, `Int`,
/// `NSNull`, dictionaries with `String` keys, arrays): Foundation's
/// `JSONSerialization` costs about a millisecond a token on Linux (dynamic casts,
/// bridging), several per plan run.
/// Any other value (a number Foundation decoded, a `Double`) is written by
/// `JSONSerialization`, exactly as before.
enum JSONText {
    /// A JSON string literal for `text`.
    static func quote(_ text: String) -> String {
        var out = ""
        appendString(text, to: &out)
        return out
    }

    /// The JSON text of a Foundation value (`String`, `Bool`, `NSNumber`, arrays,
    /// `[String: Any]`, `NSNull`); "null" when it is not one.
    static func encode(_ value: Any) -> String {
        var out = ""
        do {
            try append(value, to: &out)
        } catch {
            return "null"
        }
        return out
    }

    private struct NotJSON: Error {}

    private static func append(_ value: Any, to out: inout String) throws {
        // Scalars by their exact type: an `NSNumber` would also cast to `Bool` and `Int`.
        let type = ObjectIdentifier(Swift.type(of: value))
        if type == ObjectIdentifier(String.self) {
            appendString(value as! String, to: &out)
        } else if type == ObjectIdentifier(Bool.self) {
            out += (value as! Bool) ? "true" : "false"
        } else if type == ObjectIdentifier(Int.self) {
            out += String(value as! Int)
        } else if type == ObjectIdentifier(NSNull.self) {
            out += "null"
        } else if let object = value as? [String: Any] {
            out += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                appendString(key, to: &out)
                out += ":"
                try append(object[key]!, to: &out)
            }
            out += "}"
        } else if let array = value as? [Any] {
            out += "["
            for (index, element) in array.enumerated() {
                if index > 0 { out += "," }
                try append(element, to: &out)
            }
            out += "]"
        } else {
            let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
            guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else { throw NotJSON() }
            out += String(decoding: data, as: UTF8.self)
        }
    }

    /// A string literal as `JSONSerialization` writes one (`JSONBytes.string`).
    private static func appendString(_ text: String, to out: inout String) {
        var literal = JSONBytes()
        literal.string(text)
        out += literal.text
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
