/// JSON text made as UTF-8 bytes (`MachineReports.json`, `JSONText`): strings are
/// escaped as Foundation's `JSONEncoder` and `JSONSerialization` escape them, `"` and
/// `\` and the C0 controls (`\b \t \n \f \r`, else `\u00xx`), everything else as it
/// is. Bytes of a multi-byte UTF-8 sequence are never below 0x80, so escaping byte by
/// byte leaves them whole.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    /// The text made so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `text` as it is (punctuation, keys, numbers).
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `text` as a JSON string literal.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
